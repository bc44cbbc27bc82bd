"""Every size the command line takes (4x4 to 25x25) through the Python API: ``Board``,
``solve``, ``hint``, ``rate``, ``count``, ``canonical`` and ``generate(size=...)``, each
compared with the ``lapiz`` binary where it says the same thing. The 25x25 puzzle is nearly
solved (a minimal one takes hours to solve with the techniques)."""

from __future__ import annotations

import pickle

import pytest

import lapiz
from conftest import run_cli

FOUR = "3.1...2.2....4.."
SIX = "3.1..6....1..6.2.5.........6....34.."
# `lapiz generate --size 16 --seed 3 --clues 120`: needs eliminations (up to a WXYZ-Wing)
SIXTEEN = (
    "9..BD.4.3.A8...77G..AF...1.9D.......1..E........64F..5.3E......1"
    ".9.D.G....4..2F5...E5C...F.287..4....D..A.1.G...F28G.3...C.5.D.."
    "CB63..8..9.41A.G5.G.......B.93..2...3.G.8.....5..7942.615.CG..DE"
    ".647B15GC.8.AE9..A.9E7F.6.3.2..8...1C2A.F.9E7.34E....8..G.5A61.."
)
# `lapiz generate --size 25 --seed 1 --clues 560`
TWENTY_FIVE = (
    "G9P38O.J527IFA.4BLD1H.NE6.5K2DE17IA3PO4JHN6.9CBM8FNBHAEM68GL.2D5.IOCF34PJ71"
    "167OMP4..K.BNCH.58JAI.2L.CF.IJD3H.N81EL672PKM5A9GOBL34I5.12DN9C.OPEKH6FMGJ7"
    ".7M6KIGCL3JF4P2BDA.N1.8HEPE.F2KHN6B57A1GLMJ.O.C49I.1CNO8MPJ9IL3DEFG5476.ABK"
    ".JG9AFOE47.H6KB3C1I2NL.D54DLPN32KMFE57OC18G6I9H.AJI25J3BE4.8A.96L.FHOKPG.CN"
    "A.1..GJDC.KN.H394BE5.6.28KH8.B.N59OP4J.1AL7.CE3FID6C9E71LAHIF.GB8NJ32PK45OM"
    "FI25CL96E143HGPK7MAD8JONB3NE.G7FBOJ68KID2P9.HM5C4A9PAK6NDG8.LJB.7CIO..213FH"
    "7.BD1HP2KMCO59AJ3FN8GEI.LJMO8HA5I3C2E1NFG64B.D7KP9M8.B49IFAEDKL..6H2CGON71P"
    "EK6H.C7MNG1APF4O9I3JB8D52O3I1..KLD5H..7N8AEPBJF6MG2ANCP.8O16BGMEI5KD7FL9H34"
    "D.F75.B3PHO68J9M1NL4AIEKC"
)
PUZZLES = {4: FOUR, 6: SIX, 16: SIXTEEN, 25: TWENTY_FIVE}
SIZES = sorted(PUZZLES)


@pytest.mark.parametrize("n", SIZES)
def test_a_board_of_every_size(n: int) -> None:
    p = PUZZLES[n]
    b = lapiz.Board(p)
    assert b.size == n and len(b.values) == n * n and b.line() == p and b.givens() == p
    assert b.box == {4: (2, 2), 6: (2, 3), 16: (4, 4), 25: (5, 5)}[n] and b.symbols == "1-9A"
    last = f"r{n}c{n}"
    assert b.value(last) == b.value(n * n - 1) == b.values[-1]
    assert b.is_given(0) == (p[0] != ".")
    for i, ch in enumerate(p):
        if ch == ".":
            cands = b.candidates(i)
            assert cands and all(1 <= d <= n for d in cands)
            assert b.value(i) == 0 and not b.is_given(i)
        else:
            assert b.candidates(i) == [] and b.is_given(i) and b.value(i) >= 1
    assert not b.is_solved() and b.count_solutions() == 1
    sol = b.solution()
    assert sol is not None and sol.is_solved() and sol.size == n and sol.count_solutions() == 1
    assert b.canonical() == lapiz.canonical(p)
    # str() is a grid that reads back; repr() and pickle give the board again
    assert lapiz.Board(str(b)) == b
    assert eval(repr(b), {"Board": lapiz.Board}) == b
    assert pickle.loads(pickle.dumps(b)) == b and hash(pickle.loads(pickle.dumps(b))) == hash(b)
    marks = b.pencil_marks()
    assert lapiz.Board(marks) == lapiz.Board(marks)
    svg = b.svg()
    assert svg.startswith('<svg class="lapiz-grid"') and svg.rstrip().endswith("</svg>")
    assert svg.count('class="given"') == sum(1 for v in b.values if v)
    with pytest.raises(ValueError, match="HoDoKu library line is 9x9"):
        b.library_line()


def test_cell_names_out_of_the_board_raise_value_error() -> None:
    nine = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    for puzzle, names in (
        (nine, ["r10c1", "r9c10", "r1c10", "r26c1", "r0c1", "x"]),
        (FOUR, ["r5c1", "r1c5"]),
        (TWENTY_FIVE, ["r26c1", "r1c26", "r99c99"]),
    ):
        b = lapiz.Board(puzzle)
        for name in names:
            for method in (b.value, b.candidates, b.is_given):
                with pytest.raises(ValueError, match=name):
                    method(name)
        with pytest.raises(IndexError):
            b.value(b.size * b.size)
        with pytest.raises(IndexError):
            b.value(-1)
    # r1c10 is not r2c1 on 9x9, and r12c16 is a cell of 16x16
    with pytest.raises(ValueError, match="r10c1"):
        lapiz.Candidate("r10c1", 5)
    c = lapiz.Candidate("r12c16", 16, size=16)
    assert (c.row, c.col, c.cell, c.digit, str(c)) == (12, 16, 11 * 16 + 15, 16, "16r12c16")
    assert pickle.loads(pickle.dumps(c)) == c and eval(repr(c), {"Candidate": lapiz.Candidate}) == c
    with pytest.raises(ValueError):
        lapiz.Candidate("r1c1", 17, size=16)
    with pytest.raises(ValueError):
        lapiz.Candidate("r1c1", 1, size=10)
    assert lapiz.Board(SIXTEEN).value("r12c16") == lapiz.Board(SIXTEEN).values[11 * 16 + 15]


@pytest.mark.parametrize("n", SIZES)
def test_solve_every_size_as_the_command_line(lapiz_bin, n: int) -> None:
    p = PUZZLES[n]
    t = lapiz.solve(p)
    assert t.status == "solved" and t.puzzle == p and len(t.solution or "") == n * n
    assert t.ron == run_cli(lapiz_bin, "solve", "--format", "ron", p).stdout.decode()
    assert t.text() == run_cli(lapiz_bin, "solve", p).stdout.decode()
    assert t.html == run_cli(lapiz_bin, "solve", "--format", "html", p).stdout.decode()
    steps = t.steps
    assert len(steps) == len(t) and steps[0].board == lapiz.Board(p)
    # each step's board is the one before with the step applied
    for before, after in zip(steps, steps[1:]):
        for c in before.placements:
            assert c.size == n and 1 <= c.digit <= n
            assert before.board.value(c.cell) == 0 and after.board.value(c.cell) == c.digit
            assert not after.board.is_given(c.cell)
        for c in before.eliminations:
            assert c.digit in before.board.candidates(c.cell)
            assert c.digit not in after.board.candidates(c.cell)
    last = steps[-1].board
    assert lapiz.Board(t.solution).values == [
        c.digit if c else v
        for v, c in zip(last.values, [next((c for c in steps[-1].placements if c.cell == i), None)
                                      for i in range(n * n)])
    ]
    assert steps[-1].svg().startswith("<svg") and steps[0].explanation in t.text()
    back = pickle.loads(pickle.dumps(t))
    assert back.ron == t.ron and back.html == t.html and back.steps[-1].board == last
    assert pickle.loads(pickle.dumps(steps[-1])).board == last
    assert lapiz.Trace.from_ron(t.ron).steps[-1].board.values == last.values


def test_a_sixteen_solve_with_eliminations() -> None:
    t = lapiz.solve(SIXTEEN)
    hard = [s for s in t.steps if s.eliminations]
    assert hard and t.hardest_technique == "wxyz-wing"
    assert all(c.size == 16 and 1 <= c.digit <= 16 for s in hard for c in s.eliminations)
    assert 'class="hl eliminated"' in hard[0].svg()


@pytest.mark.parametrize("n", SIZES)
def test_hint_every_size_as_the_command_line(lapiz_bin, n: int) -> None:
    p = PUZZLES[n]
    for level in ("full", "nudge"):
        h = lapiz.hint(p, level=level)
        assert h.text + "\n" == run_cli(lapiz_bin, "hint", "--level", level, p).stdout.decode()
        html = run_cli(lapiz_bin, "hint", "--level", level, "--format", "html", p).stdout.decode()
        assert h.html == html
        assert h.svg().startswith("<svg")
    full = lapiz.hint(p)
    assert full.step is not None and full.step.explanation == full.text
    assert full.step.board == lapiz.Board(p)
    solution = lapiz.solve(p).solution
    assert lapiz.hint(solution).text == "The grid is already solved."


@pytest.mark.parametrize("n", SIZES)
def test_rate_every_size_as_the_command_line(lapiz_bin, n: int) -> None:
    p = PUZZLES[n]
    r = lapiz.rate(p)
    cli = run_cli(lapiz_bin, "rate", "--no-header", p).stdout.decode()
    assert r.row() + "\n" == cli
    # other sizes are rated with `default` unless told; the same pipeline given says so
    assert lapiz.rate(p, "default").row() == r.row()
    assert lapiz.solve(p).rating().row() == r.row()


def test_batches_mix_sizes_as_the_command_line(lapiz_bin, tmp_path) -> None:
    nine = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
    items = [FOUR, nine, SIX, SIXTEEN, TWENTY_FIVE, "3.1.."]
    path = tmp_path / "mixed.txt"
    path.write_text("\n".join(items) + "\n")
    cli = run_cli(lapiz_bin, "rate", "--file", str(path), "--no-header").stdout.decode()
    rows = [x.row() for x in lapiz.rate_many(items)]
    assert "\n".join(rows) + "\n" == cli
    traces = lapiz.solve_many(items)
    assert [t.solved for t in traces[:5]] == [True] * 5 and not traces[5].ok
    assert [t.ron for t in traces[:5]] == [lapiz.solve(p).ron for p in items[:5]]


@pytest.mark.parametrize("n", SIZES)
def test_count_and_canonical_every_size(lapiz_bin, n: int) -> None:
    p = PUZZLES[n]
    assert lapiz.count(p) == 1 and lapiz.count(lapiz.Board(p)) == 1
    assert lapiz.canonical(p) + "\n" == run_cli(lapiz_bin, "canonical", p).stdout.decode()
    assert lapiz.count_many([p, lapiz.Board(p)]) == [1, 1]


@pytest.mark.parametrize("n, extra", [
    (4, []), (6, []), (16, ["--clues", "120"]), (25, ["--clues", "560"]),
])
def test_generate_every_size_as_the_command_line(lapiz_bin, n: int, extra: list) -> None:
    kwargs = {"clues": int(extra[1])} if extra else {}
    g = lapiz.generate(2, seed=3, size=n, **kwargs)
    cli = run_cli(lapiz_bin, "generate", "--size", str(n), "--seed", "3", "--count", "2", *extra)
    assert [x.puzzle for x in g] == cli.stdout.decode().split()
    for x in g:
        b = x.board()
        assert x.size == b.size == n and lapiz.count(x.puzzle) == 1
        assert b.solution().line() == x.solution
        assert pickle.loads(pickle.dumps(x)).board() == b


def test_generate_takes_box_symbols_and_targets_on_other_sizes(lapiz_bin) -> None:
    g = lapiz.generate(2, seed=2, size=6, box="3x2", symbols="A-Z", rate=True)
    cli = run_cli(lapiz_bin, "generate", "--size", "6", "--seed", "2", "--count", "2",
                  "--box", "3x2", "--symbols", "A-Z", "--rate").stdout.decode().splitlines()
    assert cli[0] == lapiz.rating_header()
    assert [x.rating.row() for x in g] == cli[1:]
    b = g[0].board()
    assert b.box == (3, 2) and b.symbols == "A-Z" and b.line() == g[0].puzzle
    assert pickle.loads(pickle.dumps(b)) == b and eval(repr(b), {"Board": lapiz.Board}) == b
    # the same box shape as a pair, and a Board read with it solves in its symbols
    assert [x.puzzle for x in lapiz.generate(2, seed=2, size=6, box=(3, 2), symbols="A-Z")] == [
        x.puzzle for x in g]
    t = lapiz.solve(b)
    assert t.solution == g[0].board().solution().line() and all(ch.isalpha() for ch in t.solution)
    twelve = lapiz.generate(1, seed=2, size=12, symbols="0-9A")
    cli = run_cli(lapiz_bin, "generate", "--size", "12", "--seed", "2", "--symbols", "0-9A")
    assert twelve[0].puzzle + "\n" == cli.stdout.decode()
    easy = lapiz.generate(1, seed=4, size=4, difficulty="easy")
    cli = run_cli(lapiz_bin, "generate", "--size", "4", "--seed", "4", "--difficulty", "easy")
    assert easy[0].puzzle + "\n" == cli.stdout.decode() and easy[0].rating is not None
    with pytest.raises(ValueError, match="size 10"):
        lapiz.generate(1, seed=1, size=10)
    with pytest.raises(ValueError):
        lapiz.generate(1, seed=1, size=6, box="4x4")
    with pytest.raises(ValueError):
        lapiz.generate(1, seed=1, size=6, symbols="roman")
    with pytest.raises(lapiz.GenerateError):
        lapiz.generate(1, seed=1, size=4, clues=2, attempts=3)


def test_a_board_read_with_symbols_and_box() -> None:
    letters = "C.A...B.B....D.."  # FOUR in A-Z
    b = lapiz.Board(letters, symbols="A-Z")
    assert b.values == lapiz.Board(FOUR).values and b.symbols == "A-Z"
    assert lapiz.solve(b).solution == "CBADDABCBCDAADCB"
    tall = lapiz.Board(SIX, box="3x2")
    assert tall.box == (3, 2) and tall.values == lapiz.Board(SIX).values
    with pytest.raises(lapiz.ParseError):
        lapiz.Board(SIX, box="4x4")
    with pytest.raises(ValueError):
        lapiz.Board(SIX, box="tall")
