"""The OpenCL C of a set-up row, for the results JSON."""
from .reductions import Reduction


def sources(run_fn):
    """The OpenCL C a setup_* closure launches (for the JSON), best effort."""
    cells = [c.cell_contents for c in (run_fn.__closure__ or ())]
    out = []
    for c in cells:
        if isinstance(c, str) and "__kernel" in c:
            out.append(c)
        elif isinstance(c, Reduction):
            out += [c.psrc, c.fsrc]
        elif isinstance(c, list):
            out += [s[0] for s in c if isinstance(s, tuple) and s and isinstance(s[0], str)]
    seen, res = set(), []
    for s in out:
        if s not in seen:
            seen.add(s)
            res.append(s)
    return res
