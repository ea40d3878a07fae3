/*
 * The exact search of games/search/solver.py, compiled: the same alpha-beta
 * over (mover, other) bitmasks, with the same exact facts checked at every
 * position, the same depth-aware scores and the same move order, about a
 * hundred times faster. games/search/core.py loads it with ctypes; without it
 * the engine runs the Python search, which gives the same answers.
 *
 * Build (scripts/run and scripts/test do it; see docs/engine.md):
 *   cc -O2 -shared -fPIC -DCORE_SOURCE='"<sha256 of this file>"' \
 *      -o games/search/libtttcore.so games/search/core.c
 *
 * Scores are from the point of view of the player to move and count plies
 * from the start of the game: a win completed at ply p scores WIN - p for the
 * winner and p - WIN for the loser, a draw 0.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef CORE_SOURCE
#define CORE_SOURCE "unknown"
#endif

#define WIN 1000
#define INF (10 * WIN)
#define TIMED_OUT (1 << 30)
#define MAX_CELLS 25
#define MAX_LINES 64
#define MAX_SYMMETRIES 8
#define KEY_BYTES 7

typedef struct {
    uint64_t key;
    int16_t lo, hi;
    int8_t best; /* the best cell, or -1 */
    uint8_t used;
} Entry;

typedef struct {
    int cells, k, nlines, nsyms, sym_plies, key_bytes;
    uint32_t full;
    uint32_t lines[MAX_LINES];
    int order[MAX_CELLS];
    /* per symmetry (the identity left out), per byte of a key, each byte's image */
    uint64_t symtab[MAX_SYMMETRIES - 1][KEY_BYTES][256];
    Entry *table;
    uint64_t table_mask;
    int table_bits;
    uint64_t nodes;
    int has_deadline, timed_out;
    struct timespec deadline;
} Core;

static int popcount(uint32_t x) { return __builtin_popcount(x); }
static int lowest(uint32_t x) { return __builtin_ctz(x); }

static int past_deadline(const Core *c) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec > c->deadline.tv_sec ||
           (now.tv_sec == c->deadline.tv_sec && now.tv_nsec > c->deadline.tv_nsec);
}

static uint64_t canonical(const Core *c, uint64_t key) {
    uint64_t best = key;
    for (int s = 0; s < c->nsyms; s++) {
        uint64_t image = 0, k = key;
        for (int b = 0; b < c->key_bytes; b++, k >>= 8)
            image |= c->symtab[s][b][k & 255];
        if (image < best)
            best = image;
    }
    return best;
}

/* Give ``slot`` (a line wanting one of its cells) a cell of its own, moving
 * other slots along an augmenting path; ``seen`` holds the cells tried. */
static int place(int slot, const uint32_t *lines, int *owner, uint32_t *seen) {
    uint32_t cells = lines[slot >> 1];
    while (cells) {
        int cell = lowest(cells);
        cells &= cells - 1;
        if (*seen >> cell & 1)
            continue;
        *seen |= 1u << cell;
        if (owner[cell] < 0 || place(owner[cell], lines, owner, seen)) {
            owner[cell] = slot;
            return 1;
        }
    }
    return 0;
}

/* Whether every line (a mask of its empty cells) can have two empty cells of
 * its own, no cell shared: then the other side pairs them off and this side
 * never completes any of them. */
static int has_pairing(const uint32_t *lines, int n) {
    int owner[MAX_CELLS];
    for (int i = 0; i < MAX_CELLS; i++)
        owner[i] = -1;
    for (int slot = 0; slot < 2 * n; slot++) {
        uint32_t seen = 0;
        if (!place(slot, lines, owner, &seen))
            return 0;
    }
    return 1;
}

static Entry *slot_of(const Core *c, uint64_t key) {
    return &c->table[(key * 0x9E3779B97F4A7C15ull) >> (64 - c->table_bits)];
}

static int search(Core *c, uint32_t me, uint32_t opp, int alpha, int beta, const uint32_t *lines, int nlines) {
    c->nodes++;
    if (c->has_deadline && !(c->nodes & 1023) && past_deadline(c)) {
        c->timed_out = 1;
        return 0;
    }
    uint32_t occupied = me | opp;
    uint32_t empty = c->full & ~occupied;
    if (!empty)
        return 0;
    int ply = popcount(occupied);
    uint64_t raw = (uint64_t)me | (uint64_t)opp << c->cells;
    uint64_t key = ply <= c->sym_plies ? canonical(c, raw) : raw;
    int first = -1;
    Entry *entry = slot_of(c, key);
    if (entry->used && entry->key == key) {
        int t_lo = entry->lo, t_hi = entry->hi;
        if (t_lo >= beta)
            return t_lo;
        if (t_hi <= alpha)
            return t_hi;
        if (t_lo == t_hi)
            return t_lo;
        if (t_lo > alpha)
            alpha = t_lo;
        if (t_hi < beta)
            beta = t_hi;
        if (key == raw) /* the remembered move belongs to this orientation */
            first = entry->best;
    }

    int left = c->cells - ply, mine_left = (left + 1) / 2, theirs_left = left / 2;
    uint32_t threats = 0;
    uint32_t my_lines[MAX_LINES], their_lines[MAX_LINES], live[MAX_LINES];
    int n_mine = 0, n_theirs = 0, n_live = 0;
    for (int i = 0; i < nlines; i++) {
        uint32_t line = lines[i], m = me & line, p = opp & line;
        if (m && p)
            continue;
        int alive = 0;
        if (!p) {
            int need = c->k - popcount(m);
            if (need == 1)
                return WIN - ply - 1; /* win on this move */
            if (need <= mine_left) {
                my_lines[n_mine++] = line & empty;
                alive = 1;
            }
        }
        if (!m) {
            int need = c->k - popcount(p);
            if (need == 1) {
                threats |= line & ~p;
                their_lines[n_theirs++] = line & empty;
                alive = 1;
            } else if (need <= theirs_left) {
                their_lines[n_theirs++] = line & empty;
                alive = 1;
            }
        }
        if (alive)
            live[n_live++] = line;
    }
    int moves[MAX_CELLS], n_moves = 0;
    if (threats) {
        if (threats & (threats - 1))
            return ply + 2 - WIN; /* two threats: one can be blocked, the other wins */
        moves[n_moves++] = lowest(threats);
    }
    int my_open = n_mine && !(2 * n_mine <= left && has_pairing(my_lines, n_mine));
    int their_open = n_theirs && (threats || !(2 * n_theirs <= left && has_pairing(their_lines, n_theirs)));
    if (!my_open && !their_open)
        return 0;
    /* Bounds from what is still possible: no open line, no win. */
    int hi = my_open ? WIN - ply - 3 : 0;
    int lo = their_open ? ply + 4 - WIN : 0;
    if (hi <= alpha)
        return hi;
    if (lo >= beta)
        return lo;
    if (lo > alpha)
        alpha = lo;
    if (hi < beta)
        beta = hi;

    if (!threats) {
        /* Cells on two or more live lines first, then on one; of the cells on
         * none (dead for both sides) any one stands for all of them. */
        uint32_t once = 0, twice = 0;
        for (int i = 0; i < n_mine; i++) {
            twice |= once & my_lines[i];
            once |= my_lines[i];
        }
        for (int i = 0; i < n_theirs; i++) {
            twice |= once & their_lines[i];
            once |= their_lines[i];
        }
        for (int i = 0; i < c->cells; i++) {
            int cell = c->order[i];
            if (twice >> cell & 1)
                moves[n_moves++] = cell;
        }
        for (int i = 0; i < c->cells; i++) {
            int cell = c->order[i];
            if ((once & ~twice) >> cell & 1)
                moves[n_moves++] = cell;
        }
        uint32_t dead = empty & ~once;
        if (dead)
            moves[n_moves++] = lowest(dead);
        for (int i = 1; i < n_moves && first >= 0; i++) {
            if (moves[i] == first) { /* the remembered best cell first */
                for (; i > 0; i--)
                    moves[i] = moves[i - 1];
                moves[0] = first;
                break;
            }
        }
    }
    int alpha0 = alpha, best = -INF, best_cell = -1;
    for (int i = 0; i < n_moves; i++) {
        int cell = moves[i];
        int score = -search(c, opp, me | 1u << cell, -beta, -alpha, live, n_live);
        if (c->timed_out)
            return 0;
        if (score > best) {
            best = score;
            best_cell = cell;
            if (score > alpha) {
                alpha = score;
                if (alpha >= beta)
                    break;
            }
        }
    }
    if (key != raw)
        best_cell = -1; /* only remember moves in the canonical orientation */
    int t_lo = -INF, t_hi = INF;
    if (entry->used && entry->key == key) {
        t_lo = entry->lo;
        t_hi = entry->hi;
    }
    if (best <= alpha0) {
        if (best < t_hi)
            t_hi = best;
    } else if (best >= beta) {
        if (best > t_lo)
            t_lo = best;
    } else
        t_lo = t_hi = best;
    entry->key = key;
    entry->lo = (int16_t)t_lo;
    entry->hi = (int16_t)t_hi;
    entry->best = (int8_t)best_cell;
    entry->used = 1;
    return best;
}

/* ---- The interface games/search/core.py calls. ---- */

const char *ttt_core_source(void) { return CORE_SOURCE; }

int ttt_core_timed_out_score(void) { return TIMED_OUT; }

/* A solver for one board: ``lines`` its winning lines as cell masks,
 * ``order`` its cells most promising first, ``perms`` its symmetries but the
 * identity (``nsyms`` of them, ``cells`` entries each: cell -> image), keys
 * made canonical up to ``sym_plies`` marks, a memory of 2**table_bits
 * positions. NULL if the board is too big or memory is short. */
Core *ttt_core_new(int cells, int k, int nlines, const uint32_t *lines, const int *order, int nsyms,
                   const int *perms, int sym_plies, int table_bits) {
    if (cells < 1 || cells > MAX_CELLS || nlines < 0 || nlines > MAX_LINES || nsyms < 0 ||
        nsyms > MAX_SYMMETRIES - 1 || table_bits < 4 || table_bits > 30)
        return NULL;
    Core *c = calloc(1, sizeof(Core));
    if (!c)
        return NULL;
    c->table = calloc((size_t)1 << table_bits, sizeof(Entry));
    if (!c->table) {
        free(c);
        return NULL;
    }
    c->cells = cells;
    c->k = k;
    c->nlines = nlines;
    c->nsyms = nsyms;
    c->sym_plies = sym_plies;
    c->table_bits = table_bits;
    c->full = cells == 32 ? 0xFFFFFFFFu : (1u << cells) - 1;
    c->key_bytes = (2 * cells + 7) / 8;
    memcpy(c->lines, lines, sizeof(uint32_t) * nlines);
    memcpy(c->order, order, sizeof(int) * cells);
    for (int s = 0; s < nsyms; s++) {
        for (int b = 0; b < c->key_bytes; b++) {
            for (int value = 0; value < 256; value++) {
                uint64_t out = 0;
                for (int bit = 0; bit < 8; bit++) {
                    int src = b * 8 + bit;
                    if (!(value >> bit & 1) || src >= 2 * cells)
                        continue;
                    int image = src < cells ? perms[s * cells + src] : cells + perms[s * cells + src - cells];
                    out |= 1ull << image;
                }
                c->symtab[s][b][value] = out;
            }
        }
    }
    return c;
}

void ttt_core_free(Core *c) {
    if (c) {
        free(c->table);
        free(c);
    }
}

/* Forget every position searched so far. */
void ttt_core_clear(Core *c) { memset(c->table, 0, sizeof(Entry) << c->table_bits); }

uint64_t ttt_core_nodes(const Core *c) { return c->nodes; }

/* The exact score of the position for the mover if it lies in (alpha, beta),
 * otherwise a bound on the right side of the window; TIMED_OUT when
 * ``budget`` seconds (if not negative) ran out first. The position must not
 * be finished. */
int ttt_core_search(Core *c, uint32_t me, uint32_t opp, int alpha, int beta, double budget) {
    c->timed_out = 0;
    c->has_deadline = budget >= 0;
    if (c->has_deadline) {
        clock_gettime(CLOCK_MONOTONIC, &c->deadline);
        double whole = (double)(time_t)budget;
        c->deadline.tv_sec += (time_t)budget;
        c->deadline.tv_nsec += (long)((budget - whole) * 1e9);
        if (c->deadline.tv_nsec >= 1000000000L) {
            c->deadline.tv_sec += 1;
            c->deadline.tv_nsec -= 1000000000L;
        }
    }
    int score = search(c, me, opp, alpha, beta, c->lines, c->nlines);
    return c->timed_out ? TIMED_OUT : score;
}
