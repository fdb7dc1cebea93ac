// Internal to dgk_mesh (built only with DGK_HAS_GMSH): the Gmsh API session shared by the MSH
// readers (gmsh_reader.cpp) and the Gmsh mesh generators (tri_generators.cpp).
#pragma once

#include <exception>
#include <mutex>
#include <string>

#include "dgk/core/error.hpp"
#include "dgk/mesh/tri_mesh.hpp"

namespace dgk::mesh::detail {

/// The Gmsh API is one global state: hold this lock from before the session to after it.
std::mutex& gmsh_mutex();

/// Initializes the Gmsh API quietly (no terminal output, errors logged) and finalizes it on
/// every exit path.
class GmshSession {
 public:
  GmshSession();
  ~GmshSession();
  GmshSession(const GmshSession&) = delete;
  GmshSession& operator=(const GmshSession&) = delete;

 private:
  bool m_active = false;
};

/// Gmsh's own explanation of the last failure: the thrown text, else the last logged error.
std::string gmsh_message(const std::string& thrown);

/// Runs a Gmsh call, turning whatever Gmsh throws into dgk::Error
/// "<context> (<what> failed): <Gmsh's message>".
template <class F>
void gmsh_try(const std::string& context, const char* what, F&& f) {
  std::string thrown;
  bool failed = false;
  try {
    f();
  } catch (const std::string& s) {
    failed = true;
    thrown = s;
  } catch (const char* s) {
    failed = true;
    thrown = s ? s : "";
  } catch (const std::exception& e) {
    failed = true;
    thrown = e.what();
  } catch (...) {
    failed = true;
  }
  DGK_THROW_IF(failed, context << " (" << what << " failed): " << gmsh_message(thrown));
}

/// The triangles and tagged boundary edges of the current Gmsh model, with the conventions of
/// read_gmsh_tri; `name` is the mesh's source and is named in every message. Needs a session.
TriMesh tri_mesh_from_gmsh_model(const std::string& name);

}  // namespace dgk::mesh::detail
