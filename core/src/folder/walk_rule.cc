// The paths a folder is read without (latscope/folder.h walk_left_out).
#include <string>
#include <vector>

#include "latscope/folder.h"

namespace latscope {

const std::vector<NamedReason> kLeftOutFolders = {
    {".git", "version-control folder"},
    {".svn", "version-control folder"},
    {".hg", "version-control folder"},
    {"__MACOSX", "macOS archive metadata"},
};
const std::vector<NamedReason> kLeftOutFiles = {
    {".DS_Store", "OS bookkeeping file"},
    {"Thumbs.db", "OS bookkeeping file"},
    {"desktop.ini", "OS bookkeeping file"},
};
const NamedReason kLeftOutFilePrefix = {"._", "OS bookkeeping file"};

LeftOut walk_left_out(const std::string& path) {
  // Hidden files and folders are read like any other: a results folder may
  // be called .fio-results, and the engine names whatever is no log.
  size_t from = 0;
  for (size_t slash = path.find('/'); slash != std::string::npos; slash = path.find('/', from)) {
    const std::string part = path.substr(from, slash - from);
    for (const NamedReason& f : kLeftOutFolders)
      if (part == f.name) return {f.reason, path.substr(0, slash + 1)};
    from = slash + 1;
  }
  const std::string base = path.substr(from);
  for (const NamedReason& f : kLeftOutFiles)
    if (base == f.name) return {f.reason, path};
  if (base.rfind(kLeftOutFilePrefix.name, 0) == 0) return {kLeftOutFilePrefix.reason, path};
  return {};
}

}  // namespace latscope
