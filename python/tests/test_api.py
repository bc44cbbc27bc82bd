"""The single-puzzle API: boards of every form, solve, hint, rate, count, generate,
pipelines with scripts and plugins, errors, pickling and the notebook views. Where the
command line says the same thing, the test compares with it."""

from __future__ import annotations

import pickle
import re

import pytest

import lapiz
from conftest import ROOT, run_cli

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
HARD = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
# Needs an X-Wing, a finned Swordfish and an XY-Wing with the default pipeline.
MEDIUM = "..3....59....7..31.8.....2.892.........2..3......4..7.315.294.....1....7..48....."


def test_a_board_reads_every_form_lapiz_reads() -> None:
    b = lapiz.Board(EASY)
    assert b.size == 9 and len(b.values) == 81
    assert b.line() == EASY and b.givens() == EASY
    assert b.value(2) == 3 and b.value("r1c3") == 3 and b.is_given("r1c3")
    assert b.candidates("r1c1") == [4, 5] and b.candidates(2) == []
    # the picture str() draws is a pasted grid, which reads back
    assert lapiz.Board(str(b)) == b
    # zeros for empty cells
    assert lapiz.Board(EASY.replace(".", "0")) == b
    # a pencil-mark grid and a HoDoKu library line keep the pencil marks
    step = lapiz.solve(MEDIUM).steps[-1]
    later = step.board
    assert later.line() != later.givens()
    marks = later.pencil_marks()
    assert lapiz.Board(marks).pencil_marks() == marks
    library = later.library_line()
    assert library.startswith(":")
    assert lapiz.Board(library) == later
    assert repr(later).startswith("Board(")


def test_bad_puzzles_raise_with_lapizs_message(lapiz_bin) -> None:
    with pytest.raises(lapiz.ParseError, match=r"cannot read the puzzle: unexpected character 'x' at position 3"):
        lapiz.Board("12x")
    with pytest.raises(ValueError):  # a ParseError is a ValueError too
        lapiz.solve("")
    clash = "11" + "." * 79
    with pytest.raises(lapiz.InvalidPuzzleError) as e:
        lapiz.rate(clash)
    cli = run_cli(lapiz_bin, "rate", clash)
    assert cli.returncode == 1
    assert str(e.value) in cli.stderr.decode()
    with pytest.raises(lapiz.InvalidPuzzleError, match="more than one solution"):
        lapiz.solve("." * 81)
    with pytest.raises(lapiz.LapizError):
        lapiz.hint(clash)
    with pytest.raises(TypeError):
        lapiz.Board(12)  # type: ignore[arg-type]


def test_solve_gives_the_trace_the_command_line_gives(lapiz_bin) -> None:
    t = lapiz.solve(EASY)
    assert t.status == "solved" and t.solved and not t.guessed and t.reason is None
    assert t.puzzle == EASY and len(t.solution or "") == 81
    assert len(t) == len(t.steps) == 49
    first = t.steps[0]
    assert (first.technique, first.name, first.difficulty) == ("hidden-single", "Hidden Single", 1.2)
    assert first.placements == [lapiz.Candidate("r2c2", 6)]
    assert str(first.placements[0]) == "6r2c2"
    assert first.explanation == "Hidden Single: 6 in b1 => r2c2=6"
    assert first.board == lapiz.Board(EASY)
    cli = run_cli(lapiz_bin, "solve", "--format", "ron", EASY)
    assert t.ron == cli.stdout.decode()
    assert t.text() == run_cli(lapiz_bin, "solve", EASY).stdout.decode()
    assert t.html == run_cli(lapiz_bin, "solve", "--format", "html", EASY).stdout.decode()
    back = lapiz.Trace.from_ron(t.ron)
    assert back.ron == t.ron and back.steps[5].explanation == t.steps[5].explanation
    # eliminations carry their candidates
    m = lapiz.solve(MEDIUM)
    elim = next(s for s in m.steps if s.eliminations)
    assert elim.eliminations and all(1 <= c.digit <= 9 for c in elim.eliminations)
    assert elim.explanation in m.text()


def test_a_stuck_solve_says_so() -> None:
    singles = lapiz.Pipeline.from_ron(
        'Pipeline(name: "singles", techniques: [Technique("full-house"), Technique("hidden-single"), Technique("naked-single")])'
    )
    t = lapiz.solve(HARD, singles)
    assert t.status == "stuck" and not t.solved and t.pipeline == "singles"
    r = t.rating(singles)
    assert r.level == "beyond" and r.er is None and r.rating == ">2.3"


def test_hints_are_the_command_lines(lapiz_bin) -> None:
    for level in ("full", "nudge"):
        h = lapiz.hint(MEDIUM, level=level)
        cli = run_cli(lapiz_bin, "hint", "--level", level, MEDIUM)
        assert h.text + "\n" == cli.stdout.decode()
        html = run_cli(lapiz_bin, "hint", "--level", level, "--format", "html", MEDIUM)
        assert h.html == html.stdout.decode()
    nudge = lapiz.hint(EASY, level="nudge")
    assert nudge.step is None and nudge.text == "Look for a Hidden Single on digit 6 in b1."
    assert "r2c2" not in nudge.svg() or "6r2c2" not in nudge.text
    full = lapiz.hint(EASY)
    assert full.step is not None and full.step.explanation == full.text
    solved = lapiz.solve(EASY).solution
    assert lapiz.hint(solved).text == "The grid is already solved."
    with pytest.raises(ValueError):
        lapiz.hint(EASY, level="loud")


def test_rate_gives_er_ep_ed_as_rate_se_all(lapiz_bin) -> None:
    r = lapiz.rate(HARD)
    cli = run_cli(lapiz_bin, "rate", "--se-all", "--no-header", HARD).stdout.decode()
    assert r.row(se_all=True) + "\n" == cli
    csv = run_cli(lapiz_bin, "rate", "--format", "csv", "--no-header", HARD).stdout.decode()
    assert r.row(format="csv") + "\n" == csv
    fields = cli.rstrip("\n").split("\t")
    assert (str(r.er), str(r.ep), str(r.ed)) == (fields[1], fields[2], fields[3])
    assert r.level == fields[4] and r.hardest_technique == fields[6]
    assert sum(r.techniques.values()) == r.steps
    header = run_cli(lapiz_bin, "rate", "--se-all", HARD).stdout.decode().splitlines()[0]
    assert lapiz.rating_header(se_all=True) == header
    # the default pipeline rates too, with lapiz's own techniques
    own = lapiz.rate(HARD, "default")
    assert own.row() + "\n" == run_cli(
        lapiz_bin, "rate", "--pipeline", "default", "--no-header", HARD).stdout.decode()


def test_count_and_canonical(lapiz_bin) -> None:
    assert lapiz.count(EASY) == 1
    assert lapiz.count("." * 81, limit=7) == 7
    assert lapiz.count("11" + "." * 79) == 0
    assert lapiz.Board(EASY).count_solutions() == 1
    with pytest.raises(ValueError):
        lapiz.count(EASY, limit=1)
    assert lapiz.canonical(EASY) + "\n" == run_cli(lapiz_bin, "canonical", EASY).stdout.decode()
    assert lapiz.Board(EASY).solution().line() == lapiz.solve(EASY).solution


def test_count_and_canonical_take_every_size(lapiz_bin) -> None:
    four = "3.1...2.2....4.."
    assert lapiz.count(four) == 1
    assert lapiz.count("3.1...2.2.......", limit=5) == 3  # all three solutions
    # the same puzzle with its bands swapped and the digits 1 and 4 exchanged
    assert lapiz.canonical(four) == lapiz.canonical("2....1..3.4...2.")
    sixteen = run_cli(lapiz_bin, "generate", "--size", "16", "--seed", "3").stdout.decode().split()[0]
    assert len(sixteen) == 256 and lapiz.count(sixteen) == 1
    assert lapiz.canonical(sixteen) + "\n" == run_cli(lapiz_bin, "canonical", sixteen).stdout.decode()
    # a puzzle line of any size may carry more fields, as `lapiz count`'s output does
    assert lapiz.puzzle_of_line((sixteen + "\t1\n").encode()) == sixteen
    # a batch mixes sizes, and a bad line is a record, not an exception
    counts = lapiz.count_many([four, EASY, "3.1...2.2.......", "3.1.."])
    assert counts[:3] == [1, 1, 2]
    assert isinstance(counts[3], lapiz.ErrorRecord) and "16 (4x4)" in counts[3].message
    with pytest.raises(lapiz.ParseError, match="cells"):
        lapiz.count("1" * 100)


def test_generate_takes_the_command_lines_options(lapiz_bin) -> None:
    g = lapiz.generate(4, seed=7, symmetry="rot180", rate=True)
    cli = run_cli(lapiz_bin, "generate", "--count", "4", "--seed", "7", "--symmetry", "rot180",
                  "--rate").stdout.decode().splitlines()
    assert cli[0] == lapiz.rating_header()
    assert [x.rating.row() for x in g] == cli[1:]
    assert [x.index for x in g] == [0, 1, 2, 3]
    for x in g:
        assert lapiz.count(x.puzzle) == 1 and x.board().solution().line() == x.solution
    hard = lapiz.generate(1, seed=3, difficulty="hard", max_clues=30)
    cli = run_cli(lapiz_bin, "generate", "--seed", "3", "--difficulty", "hard", "--max-clues", "30")
    assert hard[0].puzzle + "\n" == cli.stdout.decode()
    ranged = lapiz.generate(2, seed=5, rating="2.0..4.0")
    cli = run_cli(lapiz_bin, "generate", "--count", "2", "--seed", "5", "--rating", "2.0..4.0")
    assert [x.puzzle for x in ranged] == cli.stdout.decode().split()
    assert lapiz.parse_rating_range("..3.5") == (0.0, 3.5)
    with pytest.raises(ValueError):
        lapiz.parse_rating_range("4..2")
    with pytest.raises(ValueError):
        lapiz.generate(1, seed=1, symmetry="spiral")
    with pytest.raises(lapiz.GenerateError, match="is not in the pipeline"):
        lapiz.generate(1, seed=1, requires=["no-such-technique"])
    with pytest.raises(lapiz.GenerateError, match="no puzzle met the targets in 2 attempts"):
        lapiz.generate(1, seed=1, rating="11.9..", attempts=2)


def test_pipelines_with_scripts_and_plugins(lapiz_bin, c_plugin) -> None:
    assert lapiz.Pipeline("se").name == "se" and lapiz.Pipeline().name == "default"
    ids = lapiz.Pipeline().ids
    assert ids[:3] == ["full-house", "hidden-single", "naked-single"]
    script = ROOT / "techniques" / "x-wing.rhai"
    p = lapiz.Pipeline("default", techniques=[script])
    techniques = {t.id: t for t in p.techniques}
    scripted = [t for t in p.techniques if t.origin != "built-in"]
    assert scripted and scripted[0].origin.endswith("x-wing.rhai")
    listing = run_cli(lapiz_bin, "techniques", "--technique", str(script)).stdout.decode()
    assert len(p) == len(listing.splitlines()) - 1 and techniques
    t = lapiz.solve(MEDIUM, p)
    cli = run_cli(lapiz_bin, "solve", "--format", "ron", "--technique", str(script), MEDIUM)
    assert t.ron == cli.stdout.decode()
    with pytest.raises(lapiz.PipelineError, match="no-such.rhai"):
        lapiz.Pipeline("default", techniques=["no-such.rhai"])
    with pytest.raises(lapiz.PipelineError, match="cannot read pipeline"):
        lapiz.Pipeline("no-such-pipeline.ron")
    with pytest.raises(lapiz.PipelineError):
        lapiz.Pipeline.from_ron("Pipeline(techniques: [], verfy: false)")
    # a plugin, in its own sandboxed host process (the package's lapiz-plugin-host)
    hosted = lapiz.Pipeline("default", plugins=[c_plugin])
    origin = [t.origin for t in hosted.techniques if t.origin != "built-in"]
    assert origin and str(c_plugin) in origin[0]
    t = lapiz.solve(MEDIUM, hosted)
    cli = run_cli(lapiz_bin, "solve", "--format", "ron", "--plugin", str(c_plugin), MEDIUM)
    assert t.ron == cli.stdout.decode()
    assert not t.rejected
    with pytest.raises(lapiz.PipelineError):
        lapiz.Pipeline("default", plugins=[ROOT / "README.md"])


def test_everything_pickles() -> None:
    b = lapiz.Board(EASY)
    t = lapiz.solve(MEDIUM)
    later = t.steps[-1].board
    objects = [
        b, later, lapiz.Pipeline("se"), lapiz.Pipeline.from_ron('Pipeline(techniques: [Technique("hidden-single")])'),
        t, t.steps[3], lapiz.rate(HARD), lapiz.hint(EASY).step, lapiz.Candidate(5, 3),
        lapiz.rate_many(["bad"])[0], lapiz.generate(1, seed=1, rate=True)[0],
        lapiz.UnreadableLine(3, "x", "why"),
    ]
    for o in objects:
        back = pickle.loads(pickle.dumps(o))
        assert type(back) is type(o)
        assert repr(back) == repr(o)
    assert pickle.loads(pickle.dumps(later)) == later
    assert pickle.loads(pickle.dumps(t)).ron == t.ron
    r = lapiz.rate(HARD)
    assert pickle.loads(pickle.dumps(r)) == r
    assert pickle.loads(pickle.dumps(lapiz.ParseError("x"))).args == ("x",)


def test_notebook_views_are_the_viewers_drawing() -> None:
    b = lapiz.Board(EASY)
    svg = b._repr_svg_()
    assert svg.startswith('<svg class="lapiz-grid"') and svg.rstrip().endswith("</svg>")
    assert svg.count('class="given"') == sum(1 for v in b.values if v)
    assert "<svg" in b._repr_html_()
    t = lapiz.solve(MEDIUM)
    html = t._repr_html_()
    assert html.startswith("<iframe id=") and "<svg" not in html
    # the page inside is the trace's page, compressed for the browser to unpack into the frame
    packed = re.search(r'atob\("([A-Za-z0-9+/=]+)"\)', html).group(1)
    import base64
    import gzip
    assert gzip.decompress(base64.b64decode(packed)).decode() == t.html
    step = next(s for s in t.steps if s.eliminations)
    drawn = step._repr_svg_()
    assert 'class="hl eliminated"' in drawn
    assert lapiz.hint(MEDIUM)._repr_svg_().startswith("<svg")
