/*
 * An example lapiz plugin in C: XY-Wing.
 *
 * A bivalue pivot holding x and y sees two bivalue pincers holding x,z and y,z. Whichever
 * digit the pivot takes, one pincer is z, so z leaves every cell that sees both pincers.
 * Each step names the pivot and pincers (roles) and the houses linking the pivot to each
 * pincer. It runs on every size, 4x4 to 25x25 (ABI version 3: a sized search reads the board
 * with its size and box shape).
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

/* The geometry of a board of any size, worked out once per search: cells 0..n*n-1 row by
 * row; houses are rows 0..n-1, columns n..2n-1, boxes 2n..3n-1 (numbered row by row). */
typedef struct Geo {
    int n;
    uint8_t row[LP_MAX_CELLS], col[LP_MAX_CELLS], box[LP_MAX_CELLS];
} Geo;

static void geometry(const LpBoard *b, Geo *g) {
    int n = (int)b->n, per_band = (int)(b->n / b->box_cols);
    g->n = n;
    for (int c = 0; c < n * n; c++) {
        g->row[c] = (uint8_t)(c / n);
        g->col[c] = (uint8_t)(c % n);
        g->box[c] = (uint8_t)(c / n / (int)b->box_rows * per_band + c % n / (int)b->box_cols);
    }
}

/* The house two cells that see each other share: their row, else their column, else their
 * box. */
static int shared_house(const Geo *g, int x, int y) {
    if (g->row[x] == g->row[y]) return g->row[x];
    if (g->col[x] == g->col[y]) return g->n + g->col[x];
    return 2 * g->n + g->box[x];
}

/* Adds a house the pattern uses, once. */
static void add_house(LpSizedOutput *out, int house) {
    for (uint32_t i = 0; i < out->houses_len; i++)
        if (out->houses[i] == house) return;
    if (out->houses_len < out->houses_cap) out->houses[out->houses_len++] = (uint8_t)house;
}

static int sees(const Geo *g, int x, int y) {
    return x != y && (g->row[x] == g->row[y] || g->col[x] == g->col[y] || g->box[x] == g->box[y]);
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

static unsigned cands(const LpBoard *b, int c) {
    unsigned all = b->n >= 32 ? ~0u : (1u << b->n) - 1u;
    return b->values[c] ? 0u : (unsigned)(b->candidates[c] & all);
}

/* Appends printf-style text to the explanation buffer, never past its capacity. */
static void say(LpSizedOutput *out, const char *fmt, int a, int b, int c, int d) {
    uint32_t room = out->explanation_cap - out->explanation_len;
    char tmp[96];
    int n = snprintf(tmp, sizeof tmp, fmt, a, b, c, d);
    if (n < 0) return;
    if ((uint32_t)n > room) n = (int)room;
    if ((size_t)n > sizeof tmp - 1) n = (int)(sizeof tmp - 1);
    memcpy(out->explanation + out->explanation_len, tmp, (size_t)n);
    out->explanation_len += (uint32_t)n;
}

static void highlight(LpSizedOutput *out, int cell, unsigned mask, uint8_t role) {
    for (int d = 1; d <= 25; d++) {
        if ((mask & (1u << (d - 1))) && out->highlights_len < out->highlights_cap) {
            LpSizedHighlight h = {(uint16_t)cell, (uint8_t)d, role};
            out->highlights[out->highlights_len++] = h;
        }
    }
}

static int32_t search(const void *context, const LpBoard *g, LpSizedOutput *out) {
    (void)context;
    int cells = (int)g->cells;
    Geo geo;
    geometry(g, &geo);
    for (int pivot = 0; pivot < cells; pivot++) {
        unsigned pm = cands(g, pivot);
        if (bit_count(pm) != 2) continue;
        for (int a = 0; a < cells; a++) {
            unsigned am = cands(g, a);
            if (!sees(&geo, pivot, a) || bit_count(am) != 2 || bit_count(am & pm) != 1) continue;
            unsigned z = am & ~pm;
            for (int b = a + 1; b < cells; b++) {
                unsigned bm = cands(g, b);
                if (!sees(&geo, pivot, b) || bit_count(bm) != 2 || bit_count(bm & pm) != 1) continue;
                /* b holds z and the other pivot digit */
                if (!(bm & z) || (bm & am & pm)) continue;
                int zd = lowest_digit(z);
                out->eliminations_len = 0;
                for (int c = 0; c < cells; c++) {
                    if (c != pivot && sees(&geo, c, a) && sees(&geo, c, b) && (cands(g, c) & z) &&
                        out->eliminations_len < out->eliminations_cap) {
                        LpSizedCandidate e = {(uint16_t)c, (uint8_t)zd};
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
                add_house(out, shared_house(&geo, pivot, a));
                add_house(out, shared_house(&geo, pivot, b));
                out->explanation_len = 0;
                say(out, "XY-Wing: %d/%d/%d in ", lowest_digit(pm), lowest_digit(pm & ~(1u << (lowest_digit(pm) - 1))), zd, 0);
                say(out, "r%dc%d,", geo.row[pivot] + 1, geo.col[pivot] + 1, 0, 0);
                say(out, "r%dc%d,r%dc%d => ", geo.row[a] + 1, geo.col[a] + 1, geo.row[b] + 1,
                    geo.col[b] + 1);
                for (uint32_t i = 0; i < out->eliminations_len; i++) {
                    int c = out->eliminations[i].cell;
                    say(out, i ? ",r%dc%d" : "r%dc%d", geo.row[c] + 1, geo.col[c] + 1, 0, 0);
                }
                say(out, "<>%d", zd, 0, 0, 0);
                if (out->emit(out) != LP_CONTINUE) return LP_OK;
            }
        }
    }
    return LP_OK;
}

static const LpTechnique techniques[] = {
    /* no 9x9 search; the sized one on every size */
    {"xy-wing-c", "XY-Wing (C plugin)", "0800", 4.2f, 0u, NULL, NULL, search, LP_EVERY_SIZE},
};

static const LpPlugin plugin = {
    LP_ABI_VERSION, sizeof(LpPlugin), sizeof(LpTechnique),
    sizeof techniques / sizeof techniques[0], techniques, "example-c",
};

LP_EXPORT const LpPlugin *lapiz_plugin(void) { return &plugin; }
