//! A strong Connect Four bot in Rust: negamax search with alpha-beta
//! pruning and iterative deepening, stopped by the clock well within the
//! judge's one-second turn.
//!
//! It speaks the Wrocław protocol: each turn it asks Params, MySymbol and
//! Board, then answers DropDisc and #END. Rust's standard output flushes at
//! every newline, so there is nothing more to do. It works for any board
//! size and line length the judge allows.
//!
//! Build: rustc -O -o alphabeta alphabeta.rs

use std::io::{self, BufRead};
use std::time::{Duration, Instant};

/// Time spent searching per turn.
const BUDGET: Duration = Duration::from_millis(250);
const WIN: i64 = 1_000_000_000;

struct Search {
    w: usize,
    h: usize,
    k: usize,
    cells: Vec<u8>,    // r*w + x, r = 0 the top row (Board's first line: the judge's y = h-1); 0 empty, 1 me, 2 the opponent
    filled: Vec<usize>, // discs per column
    empty: usize,
    windows: Vec<Vec<usize>>, // every line of k cells
    order: Vec<usize>,        // columns, centre first
    deadline: Instant,
    nodes: u64,
    stop: bool,
}

impl Search {
    fn new(w: usize, h: usize, k: usize, cells: Vec<u8>) -> Search {
        let mut filled = vec![0; w];
        let mut empty = 0;
        for y in 0..h {
            for x in 0..w {
                if cells[y * w + x] != 0 {
                    filled[x] += 1;
                } else {
                    empty += 1;
                }
            }
        }
        let mut windows = Vec::new();
        for y in 0..h as i64 {
            for x in 0..w as i64 {
                for (dx, dy) in [(1i64, 0i64), (0, 1), (1, 1), (1, -1)] {
                    let (ex, ey) = (x + dx * (k as i64 - 1), y + dy * (k as i64 - 1));
                    if ex < 0 || ey < 0 || ex >= w as i64 || ey >= h as i64 {
                        continue;
                    }
                    windows.push((0..k as i64).map(|i| ((y + dy * i) * w as i64 + x + dx * i) as usize).collect());
                }
            }
        }
        let mut order: Vec<usize> = (0..w).collect();
        let c = (w as i64 - 1) as f64 / 2.0;
        order.sort_by(|a, b| ((*a as f64 - c).abs()).partial_cmp(&(*b as f64 - c).abs()).unwrap());
        Search { w, h, k, cells, filled, empty, windows, order, deadline: Instant::now(), nodes: 0, stop: false }
    }

    fn drop(&mut self, x: usize, p: u8) -> usize {
        let y = self.h - 1 - self.filled[x];
        self.cells[y * self.w + x] = p;
        self.filled[x] += 1;
        self.empty -= 1;
        y
    }

    fn undo(&mut self, x: usize) {
        self.filled[x] -= 1;
        let y = self.h - 1 - self.filled[x];
        self.cells[y * self.w + x] = 0;
        self.empty += 1;
    }

    /// Whether the disc at (x, y) makes a line of k.
    fn wins(&self, x: usize, y: usize) -> bool {
        let p = self.cells[y * self.w + x];
        for (dx, dy) in [(1i64, 0i64), (0, 1), (1, 1), (1, -1)] {
            let mut run = 1;
            for s in [1i64, -1] {
                let (mut cx, mut cy) = (x as i64 + s * dx, y as i64 + s * dy);
                while cx >= 0 && cy >= 0 && cx < self.w as i64 && cy < self.h as i64
                    && self.cells[cy as usize * self.w + cx as usize] == p
                {
                    run += 1;
                    cx += s * dx;
                    cy += s * dy;
                }
            }
            if run >= self.k {
                return true;
            }
        }
        false
    }

    /// The position's value for player p: open lines, longer ones worth more.
    fn eval(&self, p: u8) -> i64 {
        const WEIGHT: [i64; 8] = [0, 1, 8, 64, 512, 4096, 32768, 262144];
        let mut score = 0;
        for win in &self.windows {
            let (mut mine, mut theirs) = (0, 0);
            for &i in win {
                match self.cells[i] {
                    0 => {}
                    c if c == p => mine += 1,
                    _ => theirs += 1,
                }
            }
            if theirs == 0 && mine > 0 {
                score += WEIGHT[mine.min(7)];
            } else if mine == 0 && theirs > 0 {
                score -= WEIGHT[theirs.min(7)];
            }
        }
        score
    }

    fn negamax(&mut self, depth: u32, mut alpha: i64, beta: i64, ply: i64, p: u8) -> i64 {
        self.nodes += 1;
        if self.nodes & 1023 == 0 && Instant::now() > self.deadline {
            self.stop = true;
        }
        if self.stop {
            return 0;
        }
        if depth == 0 {
            return self.eval(p);
        }
        let mut best = -WIN - 1;
        for i in 0..self.w {
            let x = self.order[i];
            if self.filled[x] >= self.h {
                continue;
            }
            let y = self.drop(x, p);
            let score = if self.wins(x, y) {
                WIN - ply
            } else if self.empty == 0 {
                0
            } else {
                -self.negamax(depth - 1, -beta, -alpha, ply + 1, 3 - p)
            };
            self.undo(x);
            if score > best {
                best = score;
            }
            if best > alpha {
                alpha = best;
            }
            if alpha >= beta {
                break;
            }
        }
        if best == -WIN - 1 {
            0
        } else {
            best
        }
    }

    /// The column to play for player 1, searching deeper until time is up.
    fn best_move(&mut self) -> usize {
        self.deadline = Instant::now() + BUDGET;
        let legal: Vec<usize> = self.order.iter().copied().filter(|&x| self.filled[x] < self.h).collect();
        let mut best = legal[0];
        for depth in 1..=self.empty as u32 {
            let mut alpha = -WIN - 1;
            let mut best_here = best;
            // The previous depth's best move first: it prunes most.
            let mut cols = vec![best];
            cols.extend(legal.iter().copied().filter(|&x| x != best));
            for x in cols {
                let y = self.drop(x, 1);
                let score = if self.wins(x, y) {
                    WIN
                } else if self.empty == 0 {
                    0
                } else {
                    -self.negamax(depth - 1, -WIN - 1, -alpha, 1, 2)
                };
                self.undo(x);
                if self.stop {
                    break;
                }
                if score > alpha {
                    alpha = score;
                    best_here = x;
                }
            }
            if self.stop {
                break;
            }
            best = best_here;
            if alpha >= WIN - 1000 || alpha <= -WIN + 1000 {
                break; // a forced result: deeper will not change it
            }
        }
        best
    }
}

fn main() {
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    let mut next = move || -> Option<String> { lines.next().and_then(|l| l.ok()) };
    loop {
        println!("Params");
        let params = match next() {
            Some(l) => l,
            None => return, // stdin closed: the game is over
        };
        let v: Vec<usize> = params.split_whitespace().map(|s| s.parse().unwrap()).collect();
        let (w, h, k) = (v[0], v[1], v[2]);
        println!("MySymbol");
        let me = match next() {
            Some(l) => l.trim().to_string(),
            None => return,
        };
        println!("Board");
        let mut cells = Vec::with_capacity(w * h);
        for _ in 0..h {
            let row = match next() {
                Some(l) => l,
                None => return,
            };
            for c in row.split_whitespace() {
                cells.push(match c {
                    "-" => 0,
                    s if s == me => 1,
                    _ => 2,
                });
            }
        }
        let mut s = Search::new(w, h, k, cells);
        let x = s.best_move();
        println!("DropDisc {}", x);
        println!("#END");
    }
}
