"""qbank: interview and study question banks as YAML, published as a multilingual study site."""

import os

__version__ = "0.1.0"

# qbank uses numpy for integer array work only, never for linear algebra. Importing numpy
# starts OpenBLAS's worker threads (one per extra core), which spin for a while before they
# sleep: CPU time spent on every command for no work, and more the more cores there are. One
# BLAS thread starts none; a value the user set is kept.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
