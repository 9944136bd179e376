(ns helper-walker
  (:require [walk.plans :as plans])
  (:import [com.jatkin.splixkoth.ppcg.game Direction]))

;; A player in a directory, with a helper namespace of its own: walks a
;; square of side 4 away from the nearer corner, then round and round it.

(defn make-move [game board state]
  (let [area (.viewingArea board)
        x (+ (.getLeft area) 10)
        y (+ (.getBottom area) 10)
        bounds (.getBounds board)
        moves (or (seq state)
                  (plans/square (if (< y (quot (.getTop bounds) 2)) Direction/North Direction/South)
                                (if (< x (quot (.getRight bounds) 2)) Direction/East Direction/West)
                                4))]
    [(first moves) (rest moves)]))
