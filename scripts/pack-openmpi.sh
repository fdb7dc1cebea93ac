#!/usr/bin/env bash
# Copies Debian's OpenMPI (launcher, libraries, components, help texts), METIS and GNU OpenMP into a folder
# that can be carried to a GPU machine without them, keeping the /usr layout so that OPAL_PREFIX
# relocates OpenMPI.
#
#   scripts/pack-openmpi.sh DEST        (default: build/openmpi-pack)
#
# On the other machine:  source DEST/env.sh; mpirun -np 2 ...
set -euo pipefail
cd "$(dirname "$0")/.."
dst=${1:-build/openmpi-pack}
arch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
lib=/usr/lib/$arch
[ -x /usr/bin/orterun ] || { echo "pack-openmpi.sh: OpenMPI is not installed (scripts/deps.sh installs it)" >&2; exit 2; }
rm -rf "$dst" && mkdir -p "$dst/bin" "$dst/lib/$arch" "$dst/etc"
cp -L /usr/bin/orterun /usr/bin/orted "$dst/bin/"
ln -s orterun "$dst/bin/mpirun"
ln -s orterun "$dst/bin/mpiexec"
# The MPI libraries and what they load that a bare machine may lack.
for so in libmpi.so.40 libmpi_cxx.so.40 libopen-rte.so.40 libopen-pal.so.40 libhwloc.so.15 libevent_core-2.1.so.7 \
  libevent_pthreads-2.1.so.7 libpmix.so.2 libltdl.so.7 libudev.so.1 libgomp.so.1 libmetis.so.5; do
  [ -e "$lib/$so" ] && cp -L "$lib/$so" "$dst/lib/$arch/"
done
mkdir -p "$dst/lib/$arch/openmpi/lib" "$dst/lib/$arch/pmix2/lib"
cp -a "$lib/openmpi/lib/openmpi3" "$dst/lib/$arch/openmpi/lib/"
cp -a "$lib/pmix2/lib/pmix" "$dst/lib/$arch/pmix2/lib/" 2>/dev/null || true
cp -aL "$lib/pmix2/share" "$dst/lib/$arch/pmix2/" 2>/dev/null || true
mkdir -p "$dst/share" && cp -aL /usr/share/openmpi "$dst/share/"
cp -aL /etc/openmpi "$dst/etc/"
strip --strip-unneeded "$dst"/bin/* "$dst"/lib/"$arch"/*.so* 2>/dev/null || true
cat >"$dst/env.sh" <<EOF
# Source this to use the carried OpenMPI.
here=\$(cd "\$(dirname "\${BASH_SOURCE[0]}")" && pwd)
export OPAL_PREFIX=\$here OPAL_SYSCONFDIR=\$here/etc/openmpi
export PATH=\$here/bin:\$PATH
export LD_LIBRARY_PATH=\$here/lib/$arch:\$here/lib/$arch/openmpi/lib:\$here/lib/$arch/pmix2/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
export PMIX_MCA_mca_base_component_path=\$here/lib/$arch/pmix2/lib/pmix
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_mca_base_component_show_load_errors=0 OMPI_MCA_btl_vader_single_copy_mechanism=none
EOF
du -sh "$dst"
