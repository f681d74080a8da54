#include "folder_args.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "cli_common.h"
#include "latscope/folder.h"

namespace latscope::cli {
namespace {

namespace fs = std::filesystem;

// The files below `dir` (a folder), named as `dir` joined with their path
// below it, in byte order; what is left out is said.
bool walk(const std::string& dir, std::vector<std::string>* out, size_t* count, std::string* error) {
  // walk_left_out reads paths as the page names them: the folder's own name first.
  const std::string shown = dir.size() > 1 && dir.back() == '/' ? dir.substr(0, dir.size() - 1) : dir;
  const std::string own = fs::path(shown).filename().string();
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
  if (ec) {
    *error = dir + ": the folder cannot be read (" + ec.message() + ")";
    return false;
  }
  std::vector<std::string> found;
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) {
      say("latscope: " + dir + ": part of the folder cannot be read (" + ec.message() + "): the rest is read");
      break;
    }
    const std::string rel = it->path().lexically_relative(dir).generic_string();
    std::string name = shown == "/" ? std::string() : shown;
    name += '/';
    name += rel;
    std::error_code kind_ec;
    const bool is_dir = it->is_directory(kind_ec);
    std::string as_page = own;  // walk_left_out's path; a folder as the parent of a file
    as_page += '/';
    as_page += rel;
    if (is_dir) as_page += "/x";
    const LeftOut left = walk_left_out(as_page);
    if (!left.reason.empty()) {
      if (is_dir) it.disable_recursion_pending();
      say("latscope: " + name + (is_dir ? "/" : "") + ": left out: " + left.reason);
      continue;
    }
    if (is_dir) {
      // Links to folders are not followed: a link back up would never end.
      if (it->is_symlink(kind_ec)) say("latscope: " + name + ": a link to a folder: not followed");
      continue;
    }
    if (!it->is_regular_file(kind_ec)) {
      say("latscope: " + name + ": not a regular file (a socket, device or broken link): left out");
      continue;
    }
    if (++*count > kMaxFolderFiles) {
      *error = dir + ": more than " + std::to_string(kMaxFolderFiles) +
               " files below the folders named: name fewer folders, or the files themselves";
      return false;
    }
    found.push_back(name);
  }
  if (found.empty()) say("latscope: " + dir + ": no files to read in this folder");
  std::sort(found.begin(), found.end());
  out->insert(out->end(), found.begin(), found.end());
  return true;
}

}  // namespace

bool expand_folders(std::vector<std::string>* files, std::string* error) {
  std::vector<std::string> out;
  size_t count = 0;
  for (const std::string& f : *files) {
    std::error_code ec;
    if (f == "-" || !fs::is_directory(f, ec)) {
      out.push_back(f);
      continue;
    }
    if (!walk(f, &out, &count, error)) return false;
  }
  files->swap(out);
  return true;
}

}  // namespace latscope::cli
