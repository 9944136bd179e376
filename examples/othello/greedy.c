//go:build ignore
// (The line above keeps the Go tool away from this C file; the tests of this
// directory are Go. The C compiler sees two comments.)

/* A greedy Othello bot in C: each turn it reads the board, its colour and
 * its legal moves, and places its disc where it turns over the most discs
 * (the first such cell, row by row from the top, on a tie); it passes when
 * it has no legal move. No flush anywhere: the judge makes stdio send each
 * line at once.
 *
 * Build: gcc -O2 -o greedy examples/othello/greedy.c
 * (or `make`, which puts it in bin/examples/othello/) */
#include <stdio.h>
#include <string.h>

#define MAXN 16

static int n;
static char board[MAXN][MAXN + 2];

/* flips counts the discs that me's disc on (x, y) turns over. */
static int flips(char me, int x, int y) {
    static const int dirs[8][2] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}};
    int total = 0;
    for (int d = 0; d < 8; d++) {
        int run = 0, cx = x + dirs[d][0], cy = y + dirs[d][1];
        while (cx >= 0 && cy >= 0 && cx < n && cy < n && board[cy][cx] != '.' && board[cy][cx] != me) {
            run++;
            cx += dirs[d][0];
            cy += dirs[d][1];
        }
        if (run > 0 && cx >= 0 && cy >= 0 && cx < n && cy < n && board[cy][cx] == me)
            total += run;
    }
    return total;
}

int main(void) {
    for (;;) {
        char me[4];
        int count;
        printf("Size\n");
        if (scanf("%d", &n) != 1 || n > MAXN) return 0; /* stdin closed: the game is over */
        printf("Board\n");
        for (int y = 0; y < n; y++)
            if (scanf("%17s", board[y]) != 1) return 0;
        printf("Color\n");
        if (scanf("%3s", me) != 1) return 0;
        printf("Legal\n");
        if (scanf("%d", &count) != 1) return 0;
        int best = -1, bx = 0, by = 0;
        for (int i = 0; i < count; i++) {
            int x, y;
            if (scanf("%d %d", &x, &y) != 2) return 0;
            int f = flips(me[0], x, y);
            if (f > best) {
                best = f;
                bx = x;
                by = y;
            }
        }
        if (best < 0)
            printf("Pass\n");
        else
            printf("Place %d %d\n", bx, by);
        printf("#END\n");
    }
}
