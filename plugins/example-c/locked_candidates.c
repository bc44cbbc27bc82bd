/*
 * An example lapiz plugin in C with two techniques: Locked Candidates Type 1 (Pointing) and
 * Type 2 (Claiming), one search function told apart by its context.
 *
 * Pointing: a digit's candidates in a box all lie in one row or column, so the digit leaves
 * the rest of that line. Claiming: a digit's candidates in a row or column all lie in one box,
 * so the digit leaves the rest of that box. Each step has its eliminations, its candidates
 * highlighted (role base), the two houses (ABI version 2) and an explanation.
 *
 * Build (Linux):  cc -shared -fPIC -O2 -I ../lapiz-plugin-api/include -o liblocked.so locked_candidates.c
 * Try:            lapiz technique check ./liblocked.so     (against the built-in twins)
 */
#include <stdio.h>

/* Built for ABI version 2 (9x9 boards only; lapiz skips it on other sizes with a note): the
 * version 2 LpTechnique and LP_ABI_VERSION. */
#define LP_ABI_TARGET 2
#include "lapiz_plugin.h"

#if defined(_WIN32)
#define LP_EXPORT __declspec(dllexport)
#else
#define LP_EXPORT __attribute__((visibility("default")))
#endif

/* The 9 cells of house h: rows 0-8, columns 9-17, boxes 18-26. */
static int cell_of(int h, int i) {
    if (h < 9) return h * 9 + i;
    if (h < 18) return i * 9 + (h - 9);
    int b = h - 18;
    return (b / 3 * 3 + i / 3) * 9 + b % 3 * 3 + i % 3;
}
static int row_of(int c) { return c / 9; }
static int col_of(int c) { return 9 + c % 9; }
static int box_of(int c) { return 18 + c / 27 * 3 + c % 9 / 3; }
static int has(const LpGrid *g, int c, int d) { return !g->values[c] && (g->candidates[c] >> (d - 1) & 1); }

/* Appends text, or a house as "r1", "c1" or "b1", to the explanation. */
static void put(LpOutput *out, const char *text) {
    for (; *text && out->explanation_len < out->explanation_cap; text++)
        out->explanation[out->explanation_len++] = (uint8_t)*text;
}
static void put_house(LpOutput *out, int h) {
    char s[4];
    snprintf(s, sizeof s, "%c%d", "rcb"[h / 9], h % 9 + 1);
    put(out, s);
}

/* One search for both: in each house `from` (boxes for pointing, lines for claiming) and digit,
 * when the digit's candidates all lie in one house `to` of the other kind, it leaves the rest
 * of `to`. */
static int32_t search(const void *context, const LpGrid *g, LpOutput *out) {
    int pointing = *(const int *)context;
    int first = pointing ? 18 : 0, last = pointing ? 27 : 18;
    for (int from = first; from < last; from++) {
        for (int d = 1; d <= 9; d++) {
            int cells[9], n = 0;
            for (int i = 0; i < 9; i++)
                if (has(g, cell_of(from, i), d)) cells[n++] = cell_of(from, i);
            if (n == 0) continue;
            /* the house of the other kind holding every one of them */
            int to = -1;
            for (int k = 0; k < 2 && to < 0; k++) {
                int h = pointing ? (k ? col_of(cells[0]) : row_of(cells[0])) : box_of(cells[0]);
                int all = 1;
                for (int i = 1; i < n; i++) {
                    int hi = pointing ? (k ? col_of(cells[i]) : row_of(cells[i])) : box_of(cells[i]);
                    all &= hi == h;
                }
                if (all) to = h;
            }
            if (to < 0) continue;
            /* eliminations: the digit in `to` outside `from` */
            for (int i = 0; i < 9; i++) {
                int c = cell_of(to, i);
                int inside = pointing ? box_of(c) == from : (from < 9 ? row_of(c) : col_of(c)) == from;
                if (!inside && has(g, c, d) && out->eliminations_len < out->eliminations_cap)
                    out->eliminations[out->eliminations_len++] = (LpCandidate){(uint8_t)c, (uint8_t)d};
            }
            if (out->eliminations_len == 0) continue;
            for (int i = 0; i < n && out->highlights_len < out->highlights_cap; i++)
                out->highlights[out->highlights_len++] =
                    (LpHighlight){(uint8_t)cells[i], (uint8_t)d, LP_ROLE_BASE};
            /* a plugin built for version 2 is only loaded by a lapiz that has the houses */
            out->houses[0] = (uint8_t)from;
            out->houses[1] = (uint8_t)to;
            out->houses_len = 2;
            char digit[12];
            snprintf(digit, sizeof digit, ": %d in ", d);
            put(out, pointing ? "Locked Candidates Type 1 (Pointing)" : "Locked Candidates Type 2 (Claiming)");
            put(out, digit);
            put_house(out, from);
            put(out, " (C plugin)");
            if (out->emit(out) != LP_CONTINUE) return LP_OK; /* the host reset every length */
        }
    }
    return LP_OK;
}

static const int POINTING = 1, CLAIMING = 0;

static const LpTechnique techniques[] = {
    {"pointing-c", "Locked Candidates Type 1 (Pointing, C)", "0100", 2.6f, 0u, &POINTING, search},
    {"claiming-c", "Locked Candidates Type 2 (Claiming, C)", "0101", 2.8f, 0u, &CLAIMING, search},
};

static const LpPlugin plugin = {LP_ABI_VERSION, sizeof(LpPlugin), sizeof(LpTechnique),
                                sizeof techniques / sizeof techniques[0], techniques,
                                "locked-candidates-c"};

LP_EXPORT const LpPlugin *lapiz_plugin(void) { return &plugin; }
