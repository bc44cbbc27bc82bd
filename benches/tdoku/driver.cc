// Reads a puzzle file like `lapiz count --file F` does and counts each puzzle's solutions (up
// to a limit, 2 by default) with tdoku's fastest solver, printing `puzzle<TAB>count` per puzzle
// and the same summary line as lapiz. Used by `compare.sh` only: a measuring tool, not part of
// lapiz. tdoku itself is fetched at run time (see compare.sh) and never copied here.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

// tdoku's entry point (src/solver_dpll_triad_simd.cc).
extern "C" size_t TdokuSolverDpllTriadSimd(const char *puzzle, size_t limit,
                                           uint32_t configuration, char *solution,
                                           size_t *num_guesses);

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE [LIMIT]\n", argv[0]);
        return 2;
    }
    size_t limit = argc > 2 ? strtoul(argv[2], nullptr, 10) : 2;
    FILE *in = strcmp(argv[1], "-") == 0 ? stdin : fopen(argv[1], "r");
    if (!in) {
        perror(argv[1]);
        return 1;
    }
    static char out_buffer[1 << 16];
    setvbuf(stdout, out_buffer, _IOFBF, sizeof out_buffer);
    char *line = nullptr;
    size_t capacity = 0;
    ssize_t len;
    size_t puzzles = 0, unique = 0, none = 0, multiple = 0;
    // Byte 81 must be zero: tdoku reads a longer string as a pencil-mark grid.
    alignas(64) char puzzle[128];
    char solution[128];
    while ((len = getline(&line, &capacity, in)) != -1) {
        while (len > 0 && strchr("\r\n \t", line[len - 1])) line[--len] = 0;
        if (len == 0 || line[0] == '#') continue;
        if (len < 81) {
            fprintf(stderr, "%s: not a puzzle: %s\n", argv[1], line);
            return 1;
        }
        memset(puzzle, 0, sizeof puzzle);
        for (int i = 0; i < 81; i++) {
            char c = line[i];
            puzzle[i] = (c >= '1' && c <= '9') ? c : '.';
        }
        size_t guesses = 0;
        size_t count = TdokuSolverDpllTriadSimd(puzzle, limit, 0, solution, &guesses);
        puzzles++;
        if (count == 0) none++;
        else if (count == 1) unique++;
        else multiple++;
        fwrite(puzzle, 1, 81, stdout);
        printf("\t%zu\n", count);
    }
    printf("puzzles: %zu, unique: %zu, none: %zu, multiple: %zu\n", puzzles, unique, none,
           multiple);
    free(line);
    return 0;
}
