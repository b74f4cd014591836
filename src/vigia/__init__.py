"""Vigia: a self-hosted AI agent platform."""

import os

# numpy's BLAS otherwise starts one thread per core for tiny matrix products; on a busy
# 2-core machine that turned 5 ms embedding queries into 270 ms. Set before numpy loads.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

__version__ = "0.1.0"
