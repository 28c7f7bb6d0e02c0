# There (on the GPU machine, no network): `source scripts/gpu-env.sh` installs the carried wheels and puts the
# project on PYTHONPATH, so every GPU run starts the same way.
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
  || return 1
# Ray, carried as an installed tree (scripts/gpu-wheels.sh says why); its `ray` command as a function.
if [ -f .whl/ray-site.tar.xz ]; then
  tar -xJf .whl/ray-site.tar.xz -C /tmp/site || return 1
  ray() { python3 -c 'import sys; from ray.scripts.scripts import main; sys.argv[0] = "ray"; sys.exit(main())' "$@"; }
fi
export PYTHONPATH=$PWD:/tmp/site   # the working tree before the carried wheel of the project
export PYTHONUNBUFFERED=1
export OPTIML_CACHE=/tmp/optiml-cache
