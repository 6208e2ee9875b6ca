"""``symattn reference``: .npy in, correctly rounded .npy (or certified decimals) out, --compare."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest

import symattn
from symattn.cli.main import main
from symattn.cli.reference import compare_report, ulp


def _save(
    tmp_path: Path, seed: int = 0, dtype: type = np.float32, shape: tuple[int, ...] = (4, 3)
) -> list[str]:
    rng = np.random.default_rng(seed)
    paths = []
    for name in "qkv":
        p = tmp_path / f"{name}.npy"
        np.save(p, rng.standard_normal(shape).astype(dtype))
        paths.append(str(p))
    return paths


def _exact(paths: list[str], **kw: object) -> np.ndarray:
    q, k, v = (np.load(p) for p in paths)
    return symattn.scaled_dot_product_attention(q, k, v, exact_float=True, **kw).to_numpy()


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("causal", [False, True])
def test_writes_correctly_rounded_float64(tmp_path: Path, dtype: type, causal: bool) -> None:
    paths = _save(tmp_path, dtype=dtype)
    out = tmp_path / "out.npy"
    argv = [*paths, "-o", str(out)] + (["--causal"] if causal else [])
    assert main(["reference", *argv]) == 0
    got = np.load(out)
    assert got.dtype == np.float64
    assert np.array_equal(got, _exact(paths, is_causal=causal))


def test_mask_and_scale(tmp_path: Path) -> None:
    paths = _save(tmp_path, seed=3)
    mask = np.array([[True, False, True, True]] * 4)
    np.save(tmp_path / "m.npy", mask)
    out = tmp_path / "o.npy"
    assert (
        main(
            [
                "reference",
                *paths,
                "--mask",
                str(tmp_path / "m.npy"),
                "--scale",
                "1/8",
                "-o",
                str(out),
            ]
        )
        == 0
    )
    from fractions import Fraction

    assert np.array_equal(np.load(out), _exact(paths, attn_mask=mask, scale=Fraction(1, 8)))


def test_digits_writes_certified_decimals(tmp_path: Path) -> None:
    paths = _save(tmp_path, seed=1)
    out = tmp_path / "o.txt"
    assert main(["reference", *paths, "--digits", "30", "-o", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert lines[0].startswith("# symattn reference, shape (4, 3)")
    q, k, v = (np.load(p) for p in paths)
    want = symattn.scaled_dot_product_attention(q, k, v, exact_float=True).output.evalf(30)
    assert [[Decimal(x) for x in line.split()] for line in lines[1:]] == want.tolist()


def test_compare_prints_errors_in_every_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = _save(tmp_path, seed=2)
    ref = _exact(paths)
    actual = tmp_path / "a.npy"
    np.save(actual, ref.astype(np.float32))
    assert main(["reference", *paths, "--compare", str(actual), "--max-ulps", "0.5"]) == 0
    text = capsys.readouterr().out
    for name in ("float16", "bfloat16", "float32", "float64", "max abs error", "max rel error"):
        assert name in text
    bad = ref.astype(np.float32)
    bad[0, 0] = np.nextafter(np.nextafter(bad[0, 0], np.float32(10)), np.float32(10))
    np.save(actual, bad)
    assert main(["reference", *paths, "--compare", str(actual), "--max-ulps", "1"]) == 1


def test_compare_report_counts_ulps() -> None:
    ref = np.array([1.0, 2.0])
    act = np.array([1.0 + 2.0**-52, 2.0])
    text, own = compare_report(ref, act, "float64")
    assert own == 1.0
    assert "identical to the reference: 1 of 2" in text
    assert ulp(np.array([1.0]), 24, -126)[0] == 2.0**-23
    assert ulp(np.array([0.0]), 11, -14)[0] == 2.0**-24


@pytest.mark.parametrize(
    "content, message",
    [
        (np.array([[1 + 2j]]), "not supported"),
        (np.array([[np.nan]]), "inf or nan"),
        (np.zeros((2, 2), dtype="V2"), "bfloat16"),
    ],
)
def test_bad_inputs_exit_2(
    tmp_path: Path, content: np.ndarray, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = _save(tmp_path)
    np.save(paths[0], content)
    assert main(["reference", *paths, "-o", str(tmp_path / "o.npy")]) == 2
    assert message in capsys.readouterr().err


def test_pickles_and_garbage_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = _save(tmp_path)
    np.save(paths[1], np.array([{"a": 1}], dtype=object), allow_pickle=True)
    Path(paths[2]).write_bytes(b"not an array")
    assert main(["reference", *paths, "-o", str(tmp_path / "o.npy")]) == 2
    assert "pickles" in capsys.readouterr().err
    assert main(["reference", paths[0], paths[0], paths[2], "-o", str(tmp_path / "o.npy")]) == 2
    assert "not a .npy" in capsys.readouterr().err


def test_nothing_to_do_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = _save(tmp_path)
    assert main(["reference", *paths]) == 2
    assert "nothing to do" in capsys.readouterr().err


def test_progress_bar_on_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = _save(tmp_path, shape=(2, 300, 2))
    assert main(["reference", *paths, "-o", str(tmp_path / "o.npy"), "--progress", "always"]) == 0
    err = capsys.readouterr().err
    assert "4/4 blocks" in err and "[" in err


def test_subnormal_outputs_are_decided(tmp_path: Path) -> None:
    # issue 15 row 14: outputs below the normal range are correctly rounded, signs included
    q = np.array([[1.0, 0.0], [0.0, 1.0]])
    paths = []
    for name, a in (("q", q), ("k", q), ("v", np.array([[5e-324, 1.0], [-5e-324, 1.0]]))):
        paths.append(str(tmp_path / f"{name}.npy"))
        np.save(paths[-1], a)
    for v in (np.array([[5e-324, 1.0], [1.0, 1.0]]), np.array([[5e-324, 1.0], [-5e-324, 1.0]])):
        np.save(paths[2], v)
        out = tmp_path / "o.npy"
        assert main(["reference", *paths, "-o", str(out)]) == 0
        want = symattn.scaled_dot_product_attention(q, q, v, exact_float=True)
        assert np.array_equal(np.load(out), want.to_numpy(method="exact"))
    assert str(np.load(out)[1, 0]) == "-0.0"  # -1.68e-324 rounds to minus zero


def test_npy_header_is_checked_before_allocation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # issue 15 row 15: a header claiming (10**6, 10**6) float64 with 64 bytes of data
    paths = _save(tmp_path)
    header = {"descr": "<f8", "fortran_order": False, "shape": (10**6, 10**6)}
    with open(paths[0], "wb") as f:
        np.lib.format.write_array_header_1_0(f, header)
        f.write(b"\0" * 64)
    assert main(["reference", *paths, "-o", str(tmp_path / "o.npy")]) == 2
    assert "max_elements" in capsys.readouterr().err
    header["shape"] = (4, 3)
    with open(paths[0], "wb") as f:
        np.lib.format.write_array_header_1_0(f, header)
        f.write(b"\0" * 64)
    assert main(["reference", *paths, "-o", str(tmp_path / "o.npy")]) == 2
    assert "claims shape (4, 3) of float64 (96 bytes of data) but the file holds 64" in (
        capsys.readouterr().err
    )


def test_extended_precision_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # issue 15 row 25: a float128 input would be silently rounded to float64
    paths = _save(tmp_path)
    np.save(paths[0], np.load(paths[0]).astype(np.longdouble))
    assert main(["reference", *paths, "-o", str(tmp_path / "o.npy")]) == 2
    err = capsys.readouterr().err
    assert "extended precision" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-1"])
def test_max_ulps_must_be_finite(
    tmp_path: Path, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # issue 15 row 26: --max-ulps nan would pass every error
    paths = _save(tmp_path)
    np.save(tmp_path / "a.npy", np.zeros((4, 3), dtype=np.float32))
    argv = ["reference", *paths, "--compare", str(tmp_path / "a.npy"), f"--max-ulps={value}"]
    assert main(argv) == 2
    assert "--max-ulps" in capsys.readouterr().err


def test_jobs_give_the_same_answers(tmp_path: Path) -> None:
    paths = _save(tmp_path, seed=5, shape=(2, 9, 3))
    one, two = tmp_path / "one.npy", tmp_path / "two.npy"
    for out, jobs in ((one, "1"), (two, "2")):
        assert main(["reference", *paths, "--causal", "--jobs", jobs, "-o", str(out)]) == 0
    assert np.array_equal(np.load(one), np.load(two))
    assert np.array_equal(np.load(one), _exact(paths, is_causal=True))
    text = tmp_path / "d.txt"
    assert main(["reference", *paths, "--jobs", "2", "--digits", "6", "-o", str(text)]) == 0
    assert len(text.read_text().splitlines()) == 1 + 2 * 9
