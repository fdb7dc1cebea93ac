#!/usr/bin/env bash
# Installs what dgk needs on a Debian 12 (bookworm) machine and builds Kokkos + KokkosKernels
# into a per-machine cache outside the source tree.
#
#   scripts/deps.sh [host|host-debug|cuda]     (default: host)
#
# Prints the Kokkos install prefix on its last line. Idempotent: Debian packages already present
# are not reinstalled, and a cached Kokkos build whose recipe (this file's Kokkos section, the
# configuration and, for CUDA, the patch in scripts/patches/) is unchanged is reused.
#
# Environment:
#   DGK_CACHE_DIR   where the Kokkos builds and the source package live
#                   (default: ${XDG_CACHE_HOME:-$HOME/.cache}/dgk)
#   DGK_JOBS        parallel build jobs (default: the CPUs this process may use, scripts/cpus.sh)
#   DGK_CUDA_CODEGEN (cuda) which ptxas and fatbinary turn nvcc's PTX into sm_90 code: a directory
#                   holding both from a CUDA toolkit of release 12 or newer, `nvcc` for nvcc
#                   11.8's own, or `auto` (default): the first ptxas on PATH of release 12 or
#                   newer with a fatbinary beside it, else nvcc's own. See docs/GPU.md.
set -euo pipefail

config="${1:-host}"
case "$config" in
  host | host-debug | cuda) ;;
  *)
    echo "deps.sh: unknown configuration '$config' (expected host, host-debug or cuda)" >&2
    exit 2
    ;;
esac

cache="${DGK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/dgk}"
# shellcheck source=cpus.sh
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/cpus.sh"
jobs="${DGK_JOBS:-$(dgk_cpus)}"
mkdir -p "$cache"
log() { echo "[dgk deps] $*" >&2; }

sudo_cmd=()
if [ "$(id -u)" != 0 ]; then sudo_cmd=(sudo); fi

# ---------------------------------------------------------------------------------------------
# Debian packages
# ---------------------------------------------------------------------------------------------
host_pkgs=(build-essential cmake ninja-build pkg-config dpkg-dev xz-utils ca-certificates
  libeigen3-dev libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev libfmt-dev
  libgmsh-dev gmsh libhdf5-dev libaec-dev zlib1g-dev hdf5-tools nlohmann-json3-dev libtomlplusplus-dev
  libxml2-utils python3-numpy python3-matplotlib python3-h5py paraview python3-paraview
  libopenmpi-dev openmpi-bin libmetis-dev)
cuda_pkgs=(nvidia-cuda-toolkit g++-11 patch)

missing_pkgs() {
  local p
  for p in "$@"; do
    dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' || echo "$p"
  done
}

# apt options for a private source list, so the machine's apt configuration is left untouched.
apt_private() {
  local dir="$cache/apt"
  mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
  local uri
  uri=$(grep -hoE '^(URIs:|deb) *https?://[^ ]*debian/?' /etc/apt/sources.list /etc/apt/sources.list.d/*.sources \
    /etc/apt/sources.list.d/*.list 2>/dev/null | grep -v security | head -n1 | awk '{print $2}')
  uri="${uri:-http://deb.debian.org/debian}"
  printf 'deb %s bookworm main contrib non-free non-free-firmware\ndeb-src %s bookworm main\n' \
    "$uri" "$uri" >"$dir/sources.list"
  echo "-o" "Dir::Etc::SourceList=$dir/sources.list" "-o" "Dir::Etc::SourceParts=/nonexistent" \
    "-o" "Dir::State::Lists=$dir/lists" "-o" "Dir::Cache=$dir/cache"
}

install_pkgs() {
  local need
  need=$(missing_pkgs "$@")
  [ -z "$need" ] && return 0
  log "installing Debian packages: $(echo $need | tr '\n' ' ')"
  # shellcheck disable=SC2207
  local opts=($(apt_private))
  "${sudo_cmd[@]}" apt-get "${opts[@]}" update -qq
  "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${opts[@]}" install -y -qq \
    --no-install-recommends $need >/dev/null
}

install_pkgs "${host_pkgs[@]}"
[ "$config" = cuda ] && install_pkgs "${cuda_pkgs[@]}"

# ---------------------------------------------------------------------------------------------
# Kokkos 3.4.01 and KokkosKernels 3.4.01 from Debian's trilinos 13.2 source package
# ---------------------------------------------------------------------------------------------
trilinos_version=13.2.0-4
src="$cache/src/trilinos-$trilinos_version"
if [ ! -f "$src/.extracted" ]; then
  log "fetching the trilinos $trilinos_version source package"
  # shellcheck disable=SC2207
  opts=($(apt_private))
  "${sudo_cmd[@]}" apt-get "${opts[@]}" update -qq
  mkdir -p "$cache/src/dl"
  (cd "$cache/src/dl" && apt-get "${opts[@]}" source --download-only "trilinos=$trilinos_version" >/dev/null)
  rm -rf "$src" && mkdir -p "$src"
  tarball=$(ls "$cache"/src/dl/trilinos_*.orig.tar.* | head -n1)
  tar xf "$tarball" -C "$src" --strip-components=1 --wildcards '*/packages/kokkos/*' '*/packages/kokkos-kernels/*'
  touch "$src/.extracted"
  rm -rf "$cache/src/dl"
fi

# The recipe: everything that changes the installed Kokkos. Its hash names the install prefix.
kokkos_common=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17 -DCMAKE_CXX_EXTENSIONS=OFF
  -DBUILD_SHARED_LIBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON
  -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_TESTS=OFF -DKokkos_ENABLE_EXAMPLES=OFF)
# KokkosKernels: dgk uses batched (header-only) kernels and CRS/BSR spmv in double with int
# ordinals; explicit instantiation is kept to that so the first build stays short.
kk_common=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17 -DCMAKE_CXX_EXTENSIONS=OFF
  -DBUILD_SHARED_LIBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON
  -DKokkosKernels_ENABLE_TESTS=OFF -DKokkosKernels_ENABLE_EXAMPLES=OFF
  -DKokkosKernels_INST_DOUBLE=ON -DKokkosKernels_INST_FLOAT=OFF
  -DKokkosKernels_INST_COMPLEX_DOUBLE=OFF -DKokkosKernels_INST_COMPLEX_FLOAT=OFF
  -DKokkosKernels_INST_ORDINAL_INT=ON -DKokkosKernels_INST_ORDINAL_INT64_T=OFF
  -DKokkosKernels_INST_OFFSET_INT=ON -DKokkosKernels_INST_OFFSET_SIZE_T=OFF
  -DKokkosKernels_INST_LAYOUTLEFT=ON -DKokkosKernels_INST_LAYOUTRIGHT=OFF
  -DKokkosKernels_INST_EXECSPACE_SERIAL=OFF -DKokkosKernels_INST_MEMSPACE_HOSTSPACE=ON)
cxx=()
case "$config" in
  host)
    kokkos_opts=("${kokkos_common[@]}")
    kk_opts=("${kk_common[@]}" -DKokkosKernels_INST_EXECSPACE_OPENMP=ON)
    ;;
  host-debug)
    # Bounds-checked Views for the sanitizer build; no ETI (header instantiation is enough there).
    kokkos_opts=("${kokkos_common[@]}" -DKokkos_ENABLE_DEBUG=ON -DKokkos_ENABLE_DEBUG_BOUNDS_CHECK=ON)
    kk_opts=("${kk_common[@]}" -DKokkosKernels_INST_DOUBLE=OFF -DKokkosKernels_INST_EXECSPACE_OPENMP=OFF)
    ;;
  cuda)
    # Debian's CUDA 11.8 with g++-11; Kokkos 3.4 knows no Hopper, so it is configured for
    # Ampere and the compiler wrapper below emits sm_90 code (see docs/GPU.md).
    export PATH=/usr/bin:$PATH
    export NVCC_WRAPPER_DEFAULT_COMPILER=g++-11
    wrapper="$cache/bin/nvcc-sm90"
    mkdir -p "$cache/bin"
    # The device code generator: nvcc 11.8 compiles to PTX; a newer toolkit's ptxas (and the
    # fatbinary that packs its cubins) may assemble that PTX for sm_90. Links to the two go into
    # a directory of their own, which the wrapper puts first on PATH, so that nvcc 11.8 itself
    # and the rest of its tools stay Debian's.
    codegen="${DGK_CUDA_CODEGEN:-auto}"
    release_of() { "$1" --version 2>/dev/null | sed -n 's/.*release \([0-9][0-9]*\.[0-9][0-9]*\).*/\1/p' | head -n1; }
    if [ "$codegen" = auto ]; then
      codegen=nvcc
      while read -r p; do
        r=$(release_of "$p")
        if [ -n "$r" ] && [ "${r%%.*}" -ge 12 ] && [ -x "$(dirname "$p")/fatbinary" ]; then
          codegen=$(dirname "$p")
          break
        fi
      done < <(type -ap ptxas | grep -v '^/usr/bin/ptxas$' || true)
    fi
    codegen_dir=""
    if [ "$codegen" != nvcc ]; then
      [ -x "$codegen/ptxas" ] && [ -x "$codegen/fatbinary" ] ||
        { echo "deps.sh: DGK_CUDA_CODEGEN=$codegen holds no ptxas and fatbinary (or use 'nvcc' or 'auto')" >&2; exit 2; }
      r=$(release_of "$codegen/ptxas")
      [ -n "$r" ] && [ "${r%%.*}" -ge 12 ] ||
        { echo "deps.sh: $codegen/ptxas is release '${r:-unknown}'; DGK_CUDA_CODEGEN needs 12 or newer" >&2; exit 2; }
      codegen_dir="$cache/codegen/cuda-$r"
      mkdir -p "$codegen_dir"
      ln -sfn "$codegen/ptxas" "$codegen_dir/ptxas"
      ln -sfn "$codegen/fatbinary" "$codegen_dir/fatbinary"
      log "device code generator: ptxas and fatbinary of CUDA $r ($codegen)"
    else
      log "device code generator: nvcc 11.8's own ptxas"
    fi
    cat >"$wrapper.new" <<EOF
#!/usr/bin/env bash
# Rewrites Kokkos's Ampere architecture flag to Hopper (and asks for sm_90 where no
# architecture is given), then calls nvcc_wrapper. With --dgk-codegen it prints which ptxas
# generates the device code. Written by scripts/deps.sh.
export PATH=${codegen_dir:+$codegen_dir:}/usr/bin:\$PATH NVCC_WRAPPER_DEFAULT_COMPILER=g++-11
if [ "\$*" = --dgk-codegen ]; then
  ptxas --version | sed -n 's/.*release \([0-9.]*\), V\([0-9.]*\).*/ptxas \2/p'
  exit
fi
args=()
arch=0
for a in "\$@"; do
  case "\$a" in
    -arch=sm_80) args+=(-arch=sm_90); arch=1 ;;
    -arch=*) args+=("\$a"); arch=1 ;;
    *) args+=("\$a") ;;
  esac
done
[ "\$arch" = 1 ] || args=(-arch=sm_90 "\${args[@]}")
exec "$src/packages/kokkos/bin/nvcc_wrapper" "\${args[@]}"
EOF
    chmod +x "$wrapper.new" && mv "$wrapper.new" "$wrapper"
    cxx=(-DCMAKE_CXX_COMPILER="$wrapper")
    kokkos_opts=("${kokkos_common[@]}" -DKokkos_ENABLE_CUDA=ON -DKokkos_ENABLE_CUDA_LAMBDA=ON
      -DKokkos_ARCH_AMPERE80=ON -DKokkos_ENABLE_CUDA_CONSTEXPR=ON)
    kk_opts=("${kk_common[@]}" -DKokkosKernels_INST_EXECSPACE_OPENMP=OFF
      -DKokkosKernels_INST_EXECSPACE_CUDA=ON -DKokkosKernels_INST_MEMSPACE_CUDASPACE=ON
      -DKokkosKernels_INST_MEMSPACE_CUDAUVMSPACE=OFF -DKokkosKernels_INST_MEMSPACE_HOSTSPACE=OFF
      -DKokkosKernels_ENABLE_TPL_CUBLAS=OFF -DKokkosKernels_ENABLE_TPL_CUSPARSE=OFF)
    ;;
esac

# The CUDA build's Kokkos is patched: team kernels may use the device's opt-in shared memory
# beyond 48 KB (see the patch's header).
kokkos_patches=()
[ "$config" = cuda ] && kokkos_patches=("$here/patches/kokkos-3.4.01-cuda-shared-opt-in.patch")

recipe_hash=$({
  echo "$trilinos_version $config"
  for p in "${kokkos_patches[@]}"; do cat "$p"; done
  printf '%s\n' "${kokkos_opts[@]}" "${kk_opts[@]}" "${cxx[@]}"
  g++ --version | head -n1
  [ "$config" = cuda ] && nvcc --version | tail -n1
  true
} | sha256sum | cut -c1-12)
prefix="$cache/kokkos-$config-$recipe_hash"

if [ ! -f "$prefix/.complete" ]; then
  log "building Kokkos + KokkosKernels ($config) into $prefix"
  start=$(date +%s)
  bdir="$cache/build-$config-$recipe_hash"
  rm -rf "$bdir" "$prefix"
  gen=()
  command -v ninja >/dev/null && gen=(-G Ninja)
  kokkos_src="$src/packages/kokkos"
  if [ ${#kokkos_patches[@]} -gt 0 ]; then
    mkdir -p "$bdir" && cp -r "$kokkos_src" "$bdir/kokkos-src" && kokkos_src="$bdir/kokkos-src"
    for p in "${kokkos_patches[@]}"; do patch -s -d "$kokkos_src" -p1 <"$p" || { echo "deps.sh: $p does not apply" >&2; exit 1; }; done
  fi
  cmake -S "$kokkos_src" -B "$bdir/kokkos" "${gen[@]}" "${cxx[@]}" "${kokkos_opts[@]}" \
    -DCMAKE_INSTALL_PREFIX="$prefix" >"$bdir.kokkos.log" 2>&1 || { cat "$bdir.kokkos.log" >&2; exit 1; }
  cmake --build "$bdir/kokkos" -j "$jobs" >>"$bdir.kokkos.log" 2>&1 || { tail -n 50 "$bdir.kokkos.log" >&2; exit 1; }
  cmake --install "$bdir/kokkos" >>"$bdir.kokkos.log" 2>&1
  cmake -S "$src/packages/kokkos-kernels" -B "$bdir/kk" "${gen[@]}" "${cxx[@]}" "${kk_opts[@]}" \
    -DKokkos_ROOT="$prefix" -DCMAKE_INSTALL_PREFIX="$prefix" >"$bdir.kk.log" 2>&1 || { cat "$bdir.kk.log" >&2; exit 1; }
  cmake --build "$bdir/kk" -j "$jobs" >>"$bdir.kk.log" 2>&1 || { tail -n 50 "$bdir.kk.log" >&2; exit 1; }
  cmake --install "$bdir/kk" >>"$bdir.kk.log" 2>&1
  rm -rf "$bdir"
  touch "$prefix/.complete"
  log "Kokkos ($config) built in $(($(date +%s) - start)) s"
else
  log "reusing cached Kokkos ($config): $prefix"
fi
# The wrapper next to Kokkos follows the code generator chosen by this run.
[ "$config" = cuda ] && cp "$wrapper" "$prefix/bin/nvcc-sm90.new" && mv "$prefix/bin/nvcc-sm90.new" "$prefix/bin/nvcc-sm90"
echo "$prefix"
