"""Fuzzed inputs (hypothesis): mutated data files and overrides either load or stop with one
clear BrewError naming the file, never another exception type; values are checked against
their declared ranges in every game; and every command refuses invalid arguments with one
line, leaving nothing behind."""

import copy
import shutil
import tempfile
import tomllib
from pathlib import Path

import pytest
from clihelp import in_process
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from runfixture import tiny_run

from sim.core import config as cfg
from sim.core.errors import BrewError, UsageError
from sim.registry import games

DATA = Path(__file__).resolve().parents[1] / "data" / "games"
GAMES = sorted(games())
JUNK = st.one_of(st.integers(-10**6, 10**6), st.floats(allow_nan=False, allow_infinity=False),
                 st.text(max_size=8), st.booleans(), st.lists(st.integers(), max_size=3),
                 st.dictionaries(st.text(max_size=4), st.integers(), max_size=2))


def leaves(node, path=()):
    """Every (path, value) leaf of a TOML tree, descending into lists of tables."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from leaves(v, (*path, k))
    elif isinstance(node, list) and node and all(isinstance(x, dict) for x in node):
        for i, v in enumerate(node):
            yield from leaves(v, (*path, i))
    else:
        yield path, node


def set_at(tree, path, value):
    for p in path[:-1]:
        tree = tree[p]
    tree[path[-1]] = value


def delete_at(tree, path):
    for p in path[:-1]:
        tree = tree[p]
    del tree[path[-1]]


def build_tree(game_id, tree):
    data = cfg.GameData(game=game_id, tree=tree, hashes={})
    return games()[game_id].build(data)


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_data_loads_or_fails_with_a_clear_error(game_id, data):
    base = cfg.load_game_data(game_id).tree
    tree = copy.deepcopy(base)
    all_leaves = list(leaves(tree))
    path, _ = data.draw(st.sampled_from(all_leaves))
    action = data.draw(st.sampled_from(["replace", "delete", "add"]))
    if action == "replace":
        set_at(tree, path, data.draw(JUNK))
    elif action == "delete":
        delete_at(tree, path)
    else:
        set_at(tree, (*path[:-1], data.draw(st.text(min_size=1, max_size=6))), data.draw(JUNK))
    try:
        build_tree(game_id, tree)
    except BrewError as exc:
        message = str(exc)
        assert "\n" not in message and message
        assert ".toml" in message  # names the file
    # anything else (KeyError, TypeError, IndexError...) fails the test


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=60, deadline=None)
@given(key=st.text(max_size=30), value=st.text(max_size=12))
def test_any_set_override_applies_or_fails_with_a_usage_error(game_id, key, value):
    data = cfg.load_game_data(game_id)
    try:
        cfg.apply_override(data, *cfg.parse_set(f"{key}={value}"))
    except BrewError as exc:
        assert "\n" not in str(exc) and str(exc)


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=25, deadline=None)
@given(garbage=st.binary(max_size=200))
def test_garbage_toml_file_is_one_clear_error(game_id, garbage, tmp_path_factory):
    root = tmp_path_factory.mktemp("data")
    shutil.copytree(DATA / game_id, root / "games" / game_id)
    target = sorted((root / "games" / game_id).glob("*.toml"))[0]
    target.write_bytes(garbage)
    try:
        tomllib.loads(garbage.decode("utf-8", errors="strict"))
        return  # valid TOML by chance: covered by the mutation test
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        pass
    old = cfg.data_root
    cfg.data_root = lambda: root
    try:
        with pytest.raises(BrewError) as info:
            cfg.load_game_data(game_id)
    finally:
        cfg.data_root = old
    assert target.name in str(info.value)


def set_key(tree, path):
    """The --set key of a leaf: file . entry id . field for an entry of a [[list]], else the
    dotted path (params.params.X is params.X); None for an entry without an id."""
    if len(path) > 2 and isinstance(path[2], int):
        entry = tree[path[0]][path[1]][path[2]]
        return f"{path[0]}.{entry['id']}." + ".".join(path[3:]) if "id" in entry else None
    return ".".join(path).replace("params.params.", "params.")


def declared_ranges(game_id):
    """(--set key, type, lo, hi) for every numeric field with a declared range in [ranges]."""
    data = cfg.load_game_data(game_id)
    out = []
    for path, value in leaves(data.tree):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or path[0] == "variants":
            continue
        bounds = data.ranges.get(path[0], {})
        for part in [p for p in path[1:] if not isinstance(p, int)]:
            bounds = bounds.get(part, {}) if isinstance(bounds, dict) else {}
        key = set_key(data.tree, path)
        if isinstance(bounds, list) and key:
            out.append((key, type(value), *bounds))
    return out


RANGED = {gid: declared_ranges(gid) for gid in GAMES}


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_every_value_is_checked_against_its_declared_range(game_id, data):
    key, typ, lo, hi = data.draw(st.sampled_from(RANGED[game_id]))
    value = data.draw(st.integers(-10**6, 10**6) if typ is int else
                      st.floats(-1e6, 1e6, allow_nan=False))
    text = f"{key}={value!r}" if typ is int else f"{key}={float(value)!r}"
    if lo <= value <= hi:
        cfg.prepare(game_id, "base", [text], [])
    else:
        with pytest.raises(UsageError, match=r"is outside its valid range"):
            cfg.prepare(game_id, "base", [text], [])


# ------------------------------------------------------------------ the command-line surface
# Every command gets a valid, tiny argument list plus one corrupted argument drawn below; each
# corruption is invalid by construction. The command must stop with exit 1 or 2 and one
# `error:` line (no traceback) and leave nothing behind: no .tmp file, no run.json or Parquet
# part, no report file. Runs in process (tests/clihelp.py: in_process), so an example costs
# milliseconds; a corruption the CLI wrongly accepted would simulate and fail the test.

GAME_INFO = {gid: (g, g.build(cfg.prepare(gid, "base", [], []))) for gid, g in games().items()}
BOTS = {gid: list(g.policies(conf)) for gid, (g, conf) in GAME_INFO.items()}
FACTIONS = {gid: g.factions(conf) for gid, (g, conf) in GAME_INFO.items()}
COUNTS = {gid: list(g.player_counts) for gid, (g, _) in GAME_INFO.items()}
VARIANTS = {v for gid, (g, _) in GAME_INFO.items() for v in g.variants(cfg.prepare(gid, "base", [], []))}
SWEEP_KEY = {"dwarfest": "brawl_limit", "brewin_usa": "quality_cost", "homebrewers": "change_cost",
             "dragon_brew": "clear_draft_cost"}  # a parameter of each game, swept over 1..2
FORMATS = ("html", "pdf", "both", "json", "all")
CLI_EXAMPLES = 100  # per command
WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=8)
ANY_TEXT = st.text(max_size=12)  # any characters, newlines and control characters included


def not_number(kind):
    """Text KIND() cannot parse (float for integer options too: the parser reads '2.0' as 2)."""
    def bad(text: str) -> bool:
        try:
            kind(text)
        except ValueError:
            return True
        return False
    return st.text(min_size=1, max_size=8).filter(bad)


BAD_COUNT = st.one_of(st.integers(max_value=0).map(str), not_number(float))  # --games, --shard-size
BAD_SHARE = st.one_of(st.floats(max_value=0.0), st.floats(min_value=0.5), st.just(float("nan"))).map(repr)
BAD_BAND = st.one_of(BAD_SHARE, not_number(float))
BAD_FORMAT = ANY_TEXT.filter(lambda s: s.strip().lower() not in FORMATS)


@st.composite
def bad_players(draw, gid):
    lo, hi = min(COUNTS[gid]), max(COUNTS[gid])
    wrong = draw(st.one_of(st.integers(max_value=lo - 1), st.integers(min_value=hi + 1)))
    good = draw(st.lists(st.sampled_from(COUNTS[gid]), max_size=2))
    items = [str(x) for x in good + [wrong]]
    return draw(st.one_of(st.permutations(items).map(",".join), st.just(f"{lo},x")))


@st.composite
def bad_bots(draw, gid, at_least=1):
    unknown = draw(WORD.filter(lambda w: w not in BOTS[gid]))
    known = draw(st.lists(st.sampled_from(BOTS[gid]), min_size=at_least - 1, max_size=2))
    return ",".join(draw(st.permutations([*known, unknown])))


@st.composite
def bad_set(draw, gid):
    """KEY=VALUE that must be refused: out of its declared range, an unknown key, a wrong type
    or no `=` at all."""
    key, typ, lo, hi = draw(st.sampled_from(RANGED[gid]))
    out_of_range = st.one_of(st.integers(max_value=-1), st.integers(min_value=1)).map(
        lambda d: (lo - abs(d) if d < 0 else hi + d))
    value = draw(out_of_range)
    return draw(st.sampled_from([
        f"{key}={typ(value)!r}", f"zz{draw(WORD)}.{key}=1", f"{key}='{draw(WORD)}'",
        f"{key}{draw(WORD)}", f"{key}=",
    ]))


@st.composite
def bad_factions(draw, gid):
    if FACTIONS[gid] == ["none"]:
        return draw(WORD)  # a game without factions refuses any
    unknown = draw(WORD.filter(lambda w: w not in FACTIONS[gid]))
    return ",".join([*FACTIONS[gid][:max(COUNTS[gid])], unknown])


@st.composite
def bad_arm(draw, gid):
    kind = draw(st.sampled_from(["set", "policies", "lineup", "factions", "zz"]))
    value = {"set": draw(bad_set(gid)), "policies": draw(bad_bots(gid)), "lineup": draw(bad_factions(gid)),
             "factions": draw(bad_factions(gid)), "zz": "1"}[kind]
    return draw(st.sampled_from([f"b:{kind}={value}", f"b{kind}={value}", f":{kind}={value}"]))


@st.composite
def bad_set_range(draw, gid):
    key, typ, lo, hi = draw(st.sampled_from([r for r in RANGED[gid] if r[1] is int]))
    a = draw(st.integers(lo, hi))
    return draw(st.sampled_from([
        f"{key}={a}..{a - draw(st.integers(1, 5))}",               # LO > HI
        f"{key}={lo - draw(st.integers(1, 10))}..{hi}",           # below the declared range
        f"{key}={lo}..{hi + draw(st.integers(1, 10))}",           # above it
        f"{key}={lo}..{hi}:{draw(st.integers(max_value=0))}",     # STEP not positive
        f"{key}={draw(WORD)}..{hi}", f"{key}{lo}..{hi}", f"zz{draw(WORD)}={lo}..{hi}",
    ]))


def common_bad(gid):
    """Options every simulating command takes, each with invalid values."""
    return {
        "--players": bad_players(gid), "--set": bad_set(gid), "--variant": WORD.filter(lambda w: w not in VARIANTS),
        "--seed": st.one_of(st.integers(max_value=-1), st.integers(min_value=2**63)).map(str),
        "--shard-size": BAD_COUNT, "--format": BAD_FORMAT, "--band": BAD_BAND,
    }


def simulate_case(gid, out):
    bad = {**common_bad(gid), "--games": BAD_COUNT, "--policies": bad_bots(gid), "--policy": bad_bots(gid),
           "--lineup": bad_factions(gid), "--factions": bad_factions(gid), "--engine": WORD.filter(
               lambda w: w not in ("local", "dask")), "--band": BAD_BAND, "--jobs": st.integers(max_value=0).map(str)}
    bad.pop("--format")
    return ["simulate", gid, "--games", "2", "--out", out, "--quiet"], bad


def arms_case(command, gid, out):
    base = [command, gid, "-n", "2", "--out", out, "--quiet", "--jobs", "1"]
    bad = {**common_bad(gid), "--games": st.one_of(st.integers(max_value=1).map(str), not_number(float)),
           "--jobs": st.integers(max_value=0).map(str)}
    if command == "experiment":
        return [*base, "--arm", "base:", "--arm", f"b:policies={BOTS[gid][0]}"], {**bad, "--arm": bad_arm(gid)}
    if command == "sweep":
        return ([*base, "--set-range", f"{SWEEP_KEY[gid]}=1..2"],
                {**bad, "--set-range": bad_set_range(gid), "--policies": bad_bots(gid)})
    return [*base, "--policies", ",".join(BOTS[gid][:2])], {**bad, "--policies": bad_bots(gid, at_least=2)}


FACTION_GAMES = [gid for gid in GAMES if FACTIONS[gid] != ["none"]]
FIRST_VARIANT = {"homebrewers": "characters"}  # powers need the characters' powers


def causal_case(command, gid, out):
    """`sensitivity`, `cards` and `powers`: tiny valid arguments and the invalid values of each
    option, among them an estimate glob that matches nothing and an unknown card, mode or
    faction."""
    base = [command, gid, "--games", "2", "--out", out, "--quiet", "--jobs", "1",
            "--variant", FIRST_VARIANT.get(gid, "base")]
    bad = {**common_bad(gid), "--games": st.one_of(st.integers(max_value=1).map(str), not_number(float)),
           "--jobs": st.integers(max_value=0).map(str), "--policies": bad_bots(gid),
           "--engine": WORD.filter(lambda w: w not in ("local", "dask"))}
    bad.pop("--shard-size")  # not an option of these commands
    if command == "sensitivity":
        return base, {**bad, "--estimates": WORD.map(lambda w: f"zz{w}*"),
                      "--screen": WORD.filter(lambda w: w not in ("auto", "oat", "grouped"))}
    if command == "cards":
        return base, {**bad, "--cards": WORD.filter(lambda w: w != "all").map(lambda w: f"zz{w}"),
                      "--modes": WORD.filter(lambda w: w not in ("inject", "remove"))}
    return base, {**bad, "--factions": WORD.filter(lambda w: w != "all").map(lambda w: f"zz{w}")}


@pytest.mark.parametrize("command", ["sensitivity", "cards", "powers"])
@settings(max_examples=CLI_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_causal_and_sensitivity_commands_refuse_any_invalid_argument(command, data, tmp_path):
    gid = data.draw(st.sampled_from(FACTION_GAMES if command == "powers" else GAMES))
    with tempfile.TemporaryDirectory(dir=tmp_path) as work:
        args, bad = causal_case(command, gid, str(Path(work) / "out"))
        if data.draw(st.booleans()):
            args[1] = data.draw(WORD.filter(lambda w: w not in GAMES))
        else:
            option = data.draw(st.sampled_from(sorted(bad)))
            args = corrupt(args, option, data.draw(bad[option]))
        check_refused(args, Path(work))


def reading_case(command, run, out):
    missing = str(Path(out) / "no_such_run")
    if command == "replay":
        return ["replay", run, "0"], {"RUN": st.just(missing), "GAME_ID": st.one_of(
            st.integers(min_value=10**6).map(str), not_number(float))}
    args = ["report", run] if command == "report" else ["compare", run, run]
    return [*args, "--out", str(Path(out) / "r.html")], {"RUN": st.just(missing), "--format": BAD_FORMAT,
                                                          "--band": BAD_BAND}


def corrupt(args, option, value):
    """ARGS with OPTION given VALUE: a positional (upper-case name) replaces its slot, an option
    already present has its value replaced, any other is appended."""
    assume(not value.startswith("--h"))  # --help is valid anywhere
    args = list(args)
    if option == "RUN":
        args[1] = value
    elif option == "GAME_ID":
        args[2] = value
    elif option in args:
        args[args.index(option) + 1] = value
    else:
        args += [option, value]
    return args


def left_behind(root: Path) -> list[str]:
    """Files a failed command must not leave: temporaries, run manifests, parts, reports."""
    bad = (".tmp", ".parquet", ".html", ".pdf", ".json")
    return [str(p) for p in root.rglob("*") if p.is_file() and (p.name.endswith(bad) or ".tmp" in p.name)]


def check_refused(args, out: Path):
    proc = in_process(*args)
    assert proc.returncode in (1, 2), f"{args}: exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), (args, proc.stderr)
    assert not left_behind(out), (args, left_behind(out))


@pytest.fixture(scope="module")
def fixture_run(tmp_path_factory):
    return str(tiny_run(tmp_path_factory.mktemp("fuzz_run") / "run"))


@pytest.mark.parametrize("command", ["simulate", "experiment", "sweep", "robustness"])
@settings(max_examples=CLI_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_simulating_commands_refuse_any_invalid_argument(command, data, tmp_path):
    gid = data.draw(st.sampled_from(GAMES))
    with tempfile.TemporaryDirectory(dir=tmp_path) as work:
        out = str(Path(work) / "out")
        args, bad = simulate_case(gid, out) if command == "simulate" else arms_case(command, gid, out)
        if command == "simulate" or data.draw(st.booleans()):
            args[1] = data.draw(st.one_of(st.just(gid), WORD.filter(lambda w: w not in GAMES)))
        if args[1] == gid:
            option = data.draw(st.sampled_from(sorted(bad)))
            args = corrupt(args, option, data.draw(bad[option]))
        check_refused(args, Path(work))


@pytest.mark.parametrize("command", ["report", "compare", "replay"])
@settings(max_examples=CLI_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_reading_commands_refuse_any_invalid_argument(command, data, fixture_run, tmp_path):
    with tempfile.TemporaryDirectory(dir=tmp_path) as work:
        args, bad = reading_case(command, fixture_run, work)
        option = data.draw(st.sampled_from(sorted(bad)))
        check_refused(corrupt(args, option, data.draw(bad[option])), Path(work))


@settings(max_examples=CLI_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(extra=st.lists(ANY_TEXT, min_size=1, max_size=3).filter(lambda xs: any(x.strip() for x in xs)
                                                                 and "--help" not in xs))
def test_games_refuses_any_argument(extra, tmp_path):
    check_refused(["games", *extra], tmp_path)
