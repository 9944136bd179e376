(ns square-walker
  (:import [com.jatkin.splixkoth.ppcg.game Direction]
           [com.jatkin.splixkoth.ppcg.game.readonly ReadOnlyBoard]
           [com.nmerrill.kothcomm.game.maps Point2D]))

;; A Clojure player as the contest's controller loads one: the namespace is
;; the file's name with _ as -, and make-move takes the game, the board and
;; the state it returned last, and returns [direction new-state].
;;
;; It walks a square: three steps towards the middle of the board, three
;; across, three back and three home, which takes the square's rim. Then
;; it walks the same square, its own land by now, round and round.

(defn- head
  "Where the head is: the middle of the view."
  [^ReadOnlyBoard board]
  (let [area (.viewingArea board)]
    (Point2D. (+ (.getLeft area) 10) (+ (.getBottom area) 10))))

(defn- back [^Direction d] (.leftTurn (.leftTurn d)))

(defn- square [^ReadOnlyBoard board]
  (let [^Point2D me (head board)
        bounds (.getBounds board)
        up (if (< (.getY me) (quot (.getTop bounds) 2)) Direction/North Direction/South)
        across (if (< (.getX me) (quot (.getRight bounds) 2)) Direction/East Direction/West)]
    (vec (concat (repeat 3 up) (repeat 3 across) (repeat 3 (back up)) (repeat 3 (back across))))))

(defn make-move [game board state]
  (let [{:keys [moves turn] :or {turn 0}} state
        moves (if (seq moves) moves (square board))]
    (when (zero? (mod turn 50))
      (println "turn" turn "of square-walker," (.getRemainingIterations game) "left"))
    [(first moves) {:moves (rest moves) :turn (inc turn)}]))
