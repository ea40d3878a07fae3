/*
 * The tests' own referee for 5x5, four in a row: win, draw or loss for the
 * player to move, by a plain exact search: alpha-beta over win/draw/loss with
 * a memory of bounds, which takes a win in one and blocks a loss in one and
 * knows nothing else of the game. It shares nothing with the engine: not its
 * code, not its pruning facts, not its scores. tests/engine/test_off_table.py builds it
 * with cc and calls it through ctypes.
 */
#include <stdint.h>
#include <stdlib.h>

#define CELLS 25
#define FULL ((1u << CELLS) - 1)
#define MEMO_BITS 23

static uint32_t lines[64];
static int nlines;
static int order[CELLS]; /* cells on the most lines first */
static uint64_t *memo; /* key + 1, the best cell + 1 in five bits, upper and lower bound + 1 in two each */
static uint64_t memo_mask;

static void make_lines(void) {
    int steps[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    nlines = 0;
    for (int r = 0; r < 5; r++)
        for (int c = 0; c < 5; c++)
            for (int s = 0; s < 4; s++) {
                int er = r + 3 * steps[s][0], ec = c + 3 * steps[s][1];
                if (er < 0 || er > 4 || ec < 0 || ec > 4)
                    continue;
                uint32_t mask = 0;
                for (int i = 0; i < 4; i++)
                    mask |= 1u << ((r + i * steps[s][0]) * 5 + c + i * steps[s][1]);
                lines[nlines++] = mask;
            }
    int count[CELLS] = {0};
    for (int cell = 0; cell < CELLS; cell++) {
        for (int i = 0; i < nlines; i++)
            count[cell] += lines[i] >> cell & 1;
        order[cell] = cell;
    }
    for (int i = 1; i < CELLS; i++) /* insertion sort, most lines first */
        for (int j = i; j > 0 && count[order[j]] > count[order[j - 1]]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
}

static int has_line(uint32_t marks) {
    for (int i = 0; i < nlines; i++)
        if ((marks & lines[i]) == lines[i])
            return 1;
    return 0;
}

/* The cells where ``marks`` would complete a line, given the ``empty`` cells. */
static uint32_t winning_cells(uint32_t marks, uint32_t empty) {
    uint32_t cells = 0;
    for (int i = 0; i < nlines; i++) {
        uint32_t gap = lines[i] & ~marks;
        if ((gap & (gap - 1)) == 0 && (gap & empty))
            cells |= gap;
    }
    return cells;
}

/* 1: the mover wins, 0: draw, -1: the mover loses, if inside (alpha, beta);
 * otherwise a bound past it. Neither side has a line yet. The memory keeps a
 * lower and an upper bound per position. */
static int value(uint32_t me, uint32_t opp, int alpha, int beta) {
    uint32_t empty = FULL & ~(me | opp);
    if (!empty)
        return 0;
    if (winning_cells(me, empty))
        return 1;
    uint32_t threats = winning_cells(opp, empty);
    if (threats & (threats - 1))
        return -1; /* two cells to block, one move */
    uint64_t key = (uint64_t)me | (uint64_t)opp << CELLS;
    uint64_t slot = (key * 0x9E3779B97F4A7C15ull) >> (64 - MEMO_BITS);
    int lo = -1, hi = 1, first = -1;
    if (memo[slot] >> 9 == key + 1) {
        lo = (int)(memo[slot] & 3) - 1;
        hi = (int)(memo[slot] >> 2 & 3) - 1;
        if (lo >= beta || lo == hi)
            return lo;
        if (hi <= alpha)
            return hi;
        first = (int)(memo[slot] >> 4 & 31) - 1;
    }
    int a = alpha > lo ? alpha : lo, b = beta < hi ? beta : hi;
    uint32_t moves = threats ? threats : empty;
    int best = -2, best_cell = -1;
    for (int i = -1; i < CELLS && best < b; i++) { /* the cell best last time first */
        int cell = i < 0 ? first : order[i];
        if (cell < 0 || !(moves >> cell & 1) || (i >= 0 && cell == first))
            continue;
        int v = -value(opp, me | 1u << cell, -b, -a);
        if (v > best) {
            best = v;
            best_cell = cell;
        }
        if (best > a)
            a = best;
    }
    if (best <= alpha && best < hi)
        hi = best;
    else if (best >= beta && best > lo)
        lo = best;
    else if (best > alpha && best < beta)
        lo = hi = best;
    memo[slot] = (key + 1) << 9 | (uint64_t)(best_cell + 1) << 4 | (uint64_t)(hi + 1) << 2 | (uint64_t)(lo + 1);
    return best;
}

/* The outcome for the mover of playing ``cell``: 1, 0 or -1; -2 when the
 * referee has no memory. */
int referee_move(uint32_t me, uint32_t opp, int cell) {
    if (!memo) {
        make_lines();
        memo_mask = (1ull << MEMO_BITS) - 1;
        memo = calloc(memo_mask + 1, sizeof(uint64_t));
        if (!memo)
            return -2;
    }
    uint32_t mine = me | 1u << cell;
    if (has_line(mine))
        return 1;
    return -value(opp, mine, -2, 2);
}
