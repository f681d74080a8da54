// Where tools that run fio leave its files (docs/formats.md, "Folders that
// benchmark tools leave"). A file's path as given (the CLI's argument, the
// page's path relative to the picked folder) may say what a fio log name
// does not: pbench-fio moves each client's logs into clients/<host>/ and
// takes the host off their names; and which files one run of the tool wrote
// together (pbench-fio: one sample folder; CBT: one id-<hash> folder).
#pragma once

#include <string>

namespace latscope {

struct ToolPlace {
  std::string tool;  // "pbench-fio", "CBT"; "" when the path shows no tool's layout
  std::string host;  // the host the folders name (pbench-fio: clients/<host>/); "" when none
  // The folder that holds one run of the tool (pbench-fio: the folder above
  // clients/, i.e. <iteration>/sample<N>; CBT: results/<iteration>/id-<hash>),
  // "." for a path that starts inside it; "" when the path shows none.
  std::string run;
};

ToolPlace tool_place_of(const std::string& path);

}  // namespace latscope
