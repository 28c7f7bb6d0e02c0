"""OptiML engine: CUDA source -> contract -> candidate -> evaluation -> search -> edit."""

import os

# NVRTC honours the CUDA driver's compute cache: on a machine with a GPU, a cache hit skips ptxas and with it the
# `-Xptxas -v` resource report gpu/compile.py reads (seen on the H100 machines: an empty log on a repeated compile,
# in any process). The driver reads this once, when CUDA initializes, so it is set as the package is imported.
os.environ["CUDA_CACHE_DISABLE"] = "1"
