(ns walk.plans
  (:import [com.jatkin.splixkoth.ppcg.game Direction]))

;; A helper namespace, found on the class path beside the player.

(defn square
  "Moves around a side×side square: up, then across, back and home."
  [^Direction up ^Direction across side]
  (let [back (fn [^Direction d] (.leftTurn (.leftTurn d)))]
    (vec (concat (repeat side up) (repeat side across) (repeat side (back up)) (repeat side (back across))))))
