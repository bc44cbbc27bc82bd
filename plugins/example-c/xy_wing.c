/*
 * An example lapiz plugin in C: XY-Wing.
 *
 * A bivalue pivot holding x and y sees two bivalue pincers holding x,z and y,z. Whichever
 * digit the pivot takes, one pincer is z, so z leaves every cell that sees both pincers.
 * Each step names the pivot and pincers (roles) and the houses linking the pivot to each
 * pincer (ABI version 2).
 *
 * Build (Linux):  cc -shared -fPIC -O2 -I ../lapiz-plugin-api/include -o libxy_wing.so xy_wing.c
 * Try:            lapiz solve PUZZLE --plugin ./libxy_wing.so
 *                 lapiz reglib reglib-1.4-dev.txt --plugin ./libxy_wing.so
 */
#include <stdio.h>
#include <string.h>

#include "lapiz_plugin.h"

#if defined(_WIN32)
#define LP_EXPORT __declspec(dllexport)
#else
#define LP_EXPORT __attribute__((visibility("default")))
#endif

static int row_of(int c) { return c / 9; }
static int col_of(int c) { return c % 9; }
static int box_of(int c) { return c / 27 * 3 + c % 9 / 3; }

/* The house two cells that see each other share: their row, else their column, else their
 * box (house numbers: rows 0-8, columns 9-17, boxes 18-26). */
static int shared_house(int a, int b) {
    if (row_of(a) == row_of(b)) return row_of(a);
    if (col_of(a) == col_of(b)) return 9 + col_of(a);
    return 18 + box_of(a);
}

/* Adds a house the pattern uses, once. */
static void add_house(LpOutput *out, int house) {
    for (uint32_t i = 0; i < out->houses_len; i++)
        if (out->houses[i] == house) return;
    if (out->houses_len < out->houses_cap) out->houses[out->houses_len++] = (uint8_t)house;
}

static int sees(int a, int b) {
    return a != b &&
           (row_of(a) == row_of(b) || col_of(a) == col_of(b) || box_of(a) == box_of(b));
}

static int bit_count(unsigned m) {
    int n = 0;
    for (; m; m &= m - 1) n++;
    return n;
}

static int lowest_digit(unsigned m) {
    int d = 1;
    while (!(m & 1u)) {
        m >>= 1;
        d++;
    }
    return d;
}

static unsigned cands(const LpGrid *g, int c) {
    return g->values[c] ? 0u : (unsigned)(g->candidates[c] & 0x1ff);
}

/* Appends printf-style text to the explanation buffer, never past its capacity. */
static void say(LpOutput *out, const char *fmt, int a, int b, int c, int d) {
    uint32_t room = out->explanation_cap - out->explanation_len;
    char tmp[96];
    int n = snprintf(tmp, sizeof tmp, fmt, a, b, c, d);
    if (n < 0) return;
    if ((uint32_t)n > room) n = (int)room;
    if ((size_t)n > sizeof tmp - 1) n = (int)(sizeof tmp - 1);
    memcpy(out->explanation + out->explanation_len, tmp, (size_t)n);
    out->explanation_len += (uint32_t)n;
}

static void highlight(LpOutput *out, int cell, unsigned mask, uint8_t role) {
    for (int d = 1; d <= 9; d++) {
        if ((mask & (1u << (d - 1))) && out->highlights_len < out->highlights_cap) {
            LpHighlight h = {(uint8_t)cell, (uint8_t)d, role};
            out->highlights[out->highlights_len++] = h;
        }
    }
}

static int32_t search(const void *context, const LpGrid *g, LpOutput *out) {
    (void)context;
    for (int pivot = 0; pivot < 81; pivot++) {
        unsigned pm = cands(g, pivot);
        if (bit_count(pm) != 2) continue;
        for (int a = 0; a < 81; a++) {
            unsigned am = cands(g, a);
            if (!sees(pivot, a) || bit_count(am) != 2 || bit_count(am & pm) != 1) continue;
            unsigned z = am & ~pm;
            for (int b = a + 1; b < 81; b++) {
                unsigned bm = cands(g, b);
                if (!sees(pivot, b) || bit_count(bm) != 2 || bit_count(bm & pm) != 1) continue;
                /* b holds z and the other pivot digit */
                if (!(bm & z) || (bm & am & pm)) continue;
                int zd = lowest_digit(z);
                out->eliminations_len = 0;
                for (int c = 0; c < 81; c++) {
                    if (c != pivot && sees(c, a) && sees(c, b) && (cands(g, c) & z)) {
                        LpCandidate e = {(uint8_t)c, (uint8_t)zd};
                        out->eliminations[out->eliminations_len++] = e;
                    }
                }
                if (out->eliminations_len == 0) continue;
                out->highlights_len = 0;
                highlight(out, pivot, pm, LP_ROLE_PIVOT);
                highlight(out, a, am, LP_ROLE_PINCER);
                highlight(out, b, bm, LP_ROLE_PINCER);
                /* the houses linking the pivot to each pincer */
                out->houses_len = 0;
                add_house(out, shared_house(pivot, a));
                add_house(out, shared_house(pivot, b));
                out->explanation_len = 0;
                say(out, "XY-Wing: %d/%d/%d in ", lowest_digit(pm), lowest_digit(pm & ~(1u << (lowest_digit(pm) - 1))), zd, 0);
                say(out, "r%dc%d,", row_of(pivot) + 1, col_of(pivot) + 1, 0, 0);
                say(out, "r%dc%d,r%dc%d => ", row_of(a) + 1, col_of(a) + 1, row_of(b) + 1, col_of(b) + 1);
                for (uint32_t i = 0; i < out->eliminations_len; i++) {
                    int c = out->eliminations[i].cell;
                    say(out, i ? ",r%dc%d" : "r%dc%d", row_of(c) + 1, col_of(c) + 1, 0, 0);
                }
                say(out, "<>%d", zd, 0, 0, 0);
                if (out->emit(out) != LP_CONTINUE) return LP_OK;
            }
        }
    }
    return LP_OK;
}

static const LpTechnique techniques[] = {
    {"xy-wing-c", "XY-Wing (C plugin)", "0800", 4.2f, 0u, NULL, search},
};

static const LpPlugin plugin = {
    LP_ABI_VERSION, sizeof(LpPlugin), sizeof(LpTechnique),
    sizeof techniques / sizeof techniques[0], techniques, "example-c",
};

LP_EXPORT const LpPlugin *lapiz_plugin(void) { return &plugin; }
