/*
 * lapiz_plugin.h: the C ABI through which lapiz loads technique plugins.
 *
 * This header mirrors plugins/lapiz-plugin-api/src/abi.rs; a lapiz test compiles it and
 * checks every size, field offset and constant against the Rust definitions.
 *
 * A plugin is a shared library exporting one symbol:
 *
 *     const LpPlugin *lapiz_plugin(void);
 *
 * which returns a descriptor table that stays valid for the life of the process. The host
 * owns every buffer a search writes into: a plugin never frees host memory, the host never
 * frees plugin memory. See docs/plugins.md for the rules and a walk-through.
 */
#ifndef LAPIZ_PLUGIN_H
#define LAPIZ_PLUGIN_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Any change to the types or rules below bumps the version.
 *   Version 2 appended the houses buffer to LpOutput.
 *   Version 3 carries the board's size: LpTechnique gained search_sized and sizes; a sized
 *   search reads an LpBoard (4x4 to 25x25: n, the box shape, n*n values, 32-bit candidate
 *   masks) and writes an LpSizedOutput (cells up to 624, digits up to 25, houses up to 74).
 * lapiz loads plugins built for every version from 1; those of versions 1 and 2 run on 9x9
 * boards only (lapiz skips them on other sizes, with a note).
 *
 * A plugin built for an older version (to load in older lapiz too) defines LP_ABI_TARGET to 1
 * or 2 before including this header: LP_ABI_VERSION and LpTechnique are then that version's
 * (the other types stay declared; such a plugin uses only what its version has: no sized
 * search, and for version 1 no houses). */
#ifndef LP_ABI_TARGET
#define LP_ABI_TARGET 3
#endif
#if LP_ABI_TARGET == 1
#define LP_ABI_VERSION 1u
#elif LP_ABI_TARGET == 2
#define LP_ABI_VERSION 2u
#elif LP_ABI_TARGET == 3
#define LP_ABI_VERSION 3u
#else
#error "LP_ABI_TARGET must be 1, 2 or 3"
#endif

/* Search status. */
#define LP_OK 0     /* ran to the end, or stopped because emit asked it to */
#define LP_ERROR 1  /* failed; the explanation buffer holds the message */
#define LP_PANIC 2  /* aborted its work; the explanation buffer may hold the message */

/* What emit answers. */
#define LP_CONTINUE 0 /* keep searching */
#define LP_STOP 1     /* no more steps wanted: return LP_OK now */
#define LP_REJECTED 2 /* the host refused the step; the technique is disabled: return now */

/* LpTechnique.flags */
#define LP_NEEDS_UNIQUENESS 1u /* only sound when the puzzle has one solution */

/* LpHighlight.role */
#define LP_ROLE_PATTERN 0
#define LP_ROLE_BASE 1
#define LP_ROLE_COVER 2
#define LP_ROLE_FIN 3
#define LP_ROLE_PIVOT 4
#define LP_ROLE_PINCER 5
#define LP_ROLE_LINK 6
#define LP_ROLE_COLOR_A 7
#define LP_ROLE_COLOR_B 8

/* The host's buffers hold at least this many entries (bytes for the explanation). */
#define LP_MIN_PLACEMENTS 81u
#define LP_MIN_ELIMINATIONS 729u
#define LP_MIN_HIGHLIGHTS 1024u
#define LP_MIN_EXPLANATION 1024u
#define LP_MIN_HOUSES 27u /* version 2 */

/* Version 3: board sizes and the sized search's buffers (the same for every size). */
#define LP_MAX_SIZE 25u   /* boards are 4x4 to 25x25 */
#define LP_MAX_CELLS 625u /* the length of LpBoard's arrays */
#define LP_SIZE(n) (1u << (n)) /* the bit of LpTechnique.sizes for n x n boards */
#define LP_EVERY_SIZE 0xffffffffu /* every size lapiz runs, now and later */
#define LP_SIZED_MIN_PLACEMENTS 625u
#define LP_SIZED_MIN_ELIMINATIONS 15625u
#define LP_SIZED_MIN_HIGHLIGHTS 15625u
#define LP_SIZED_MIN_HOUSES 75u

/* Cells are numbered 0..80 row by row (r1c1 = 0, r9c9 = 80); digits are 1..9. */
typedef struct LpGrid {
    uint8_t values[81];      /* digit of each cell, 0 when empty */
    uint16_t candidates[81]; /* bit d-1 for digit d; 0 for filled cells */
} LpGrid;

typedef struct LpCandidate {
    uint8_t cell;
    uint8_t digit;
} LpCandidate;

typedef struct LpHighlight {
    uint8_t cell;
    uint8_t digit;
    uint8_t role; /* LP_ROLE_* */
} LpHighlight;

struct LpOutput;

/* Hands the step written in the buffers to the host, which copies it, resets every length
 * to 0 and answers LP_CONTINUE, LP_STOP or LP_REJECTED. Call it only on the thread running
 * the search, before the search returns, and never from two threads at once. */
typedef int32_t (*LpEmitFn)(struct LpOutput *out);

/* One search's output: fill the buffers for one step (lengths never above capacities), call
 * out->emit(out), go on to the next step. Fields are only ever appended, in a new version. */
typedef struct LpOutput {
    LpCandidate *placements;
    uint32_t placements_cap;
    uint32_t placements_len;
    LpCandidate *eliminations;
    uint32_t eliminations_cap;
    uint32_t eliminations_len;
    LpHighlight *highlights;
    uint32_t highlights_cap;
    uint32_t highlights_len;
    uint8_t *explanation; /* UTF-8, no NUL needed; the error message with LP_ERROR */
    uint32_t explanation_cap;
    uint32_t explanation_len;
    float difficulty;     /* the step's own rating; 0 means the technique's */
    uint32_t struct_size; /* sizeof(LpOutput) as the host sees it */
    void *host;           /* the host's; leave it alone */
    LpEmitFn emit;
    /* version 2: the houses the pattern uses: rows 0-8, columns 9-17, boxes 18-26 */
    uint8_t *houses;
    uint32_t houses_cap;
    uint32_t houses_len;
} LpOutput;

/* A search may run on several threads at once (each with its own output). */
typedef int32_t (*LpSearchFn)(const void *context, const LpGrid *grid, LpOutput *out);

/* Version 3: a board of any size. Cells are numbered 0..n*n-1 row by row; houses are the n
 * rows (0..n-1), the n columns (n..2n-1) and the n boxes (2n..3n-1, numbered row by row, each
 * box_rows x box_cols); digits are 1..n. Entries past `cells` are 0. */
typedef struct LpBoard {
    uint32_t n;        /* 4, 6, 8, 9, 12, 16 or 25 */
    uint32_t box_rows;
    uint32_t box_cols; /* box_rows * box_cols == n */
    uint32_t cells;    /* n * n */
    uint32_t candidates[625]; /* bit d-1 for digit d; 0 for filled cells */
    uint8_t values[625];      /* digit of each cell, 0 when empty */
} LpBoard;

typedef struct LpSizedCandidate {
    uint16_t cell; /* 0..n*n-1 */
    uint8_t digit; /* 1..n */
} LpSizedCandidate;

typedef struct LpSizedHighlight {
    uint16_t cell;
    uint8_t digit;
    uint8_t role; /* LP_ROLE_* */
} LpSizedHighlight;

struct LpSizedOutput;

/* As LpEmitFn, for a sized search. */
typedef int32_t (*LpSizedEmitFn)(struct LpSizedOutput *out);

/* One sized search's output: LpOutput's rules, wide candidates, every capacity at least the
 * LP_SIZED_MIN_* constant. */
typedef struct LpSizedOutput {
    LpSizedCandidate *placements;
    uint32_t placements_cap;
    uint32_t placements_len;
    LpSizedCandidate *eliminations;
    uint32_t eliminations_cap;
    uint32_t eliminations_len;
    LpSizedHighlight *highlights;
    uint32_t highlights_cap;
    uint32_t highlights_len;
    uint8_t *houses; /* rows 0..n-1, columns n..2n-1, boxes 2n..3n-1 */
    uint32_t houses_cap;
    uint32_t houses_len;
    uint8_t *explanation; /* UTF-8, no NUL needed; the error message with LP_ERROR */
    uint32_t explanation_cap;
    uint32_t explanation_len;
    float difficulty;     /* the step's own rating; 0 means the technique's */
    uint32_t struct_size; /* sizeof(LpSizedOutput) as the host sees it */
    void *host;           /* the host's; leave it alone */
    LpSizedEmitFn emit;
} LpSizedOutput;

/* Version 3: the search of every size; may run on several threads at once. */
typedef int32_t (*LpSizedSearchFn)(const void *context, const LpBoard *board, LpSizedOutput *out);

typedef struct LpTechnique {
    const char *id;    /* e.g. "xy-wing-c": lowercase letters, digits, '-', '_' */
    const char *name;  /* e.g. "XY-Wing" */
    const char *codes; /* HoDoKu library codes, comma separated, or NULL */
    float difficulty;  /* Sudoku Explainer's scale, in (0, 20] */
    uint32_t flags;    /* LP_NEEDS_UNIQUENESS or 0 */
    const void *context; /* passed back to search */
    LpSearchFn search;   /* the 9x9 search (9x9 boards only), or NULL with search_sized */
#if LP_ABI_TARGET >= 3
    LpSizedSearchFn search_sized; /* version 3: the search of every size, or NULL */
    uint32_t sizes; /* version 3: LP_SIZE(n) for each size search_sized runs on, or
                       LP_EVERY_SIZE; 0 with search. A technique has one search, not both. */
#endif
} LpTechnique;

typedef struct LpPlugin {
    uint32_t abi_version;    /* LP_ABI_VERSION; stays the first field in every version */
    uint32_t struct_size;    /* sizeof(LpPlugin) */
    uint32_t technique_size; /* sizeof(LpTechnique), as LP_ABI_TARGET lays it out */
    uint32_t technique_count;
    const LpTechnique *techniques;
    const char *name;
} LpPlugin;

/* The one symbol a plugin exports. */
typedef const LpPlugin *(*LpEntryFn)(void);

#ifdef __cplusplus
}
#endif

#endif /* LAPIZ_PLUGIN_H */
