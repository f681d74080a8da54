// Queries use one account of every I/O (latscope/folder.h plan_accounts,
// docs/folders.md): of the selected series, those of a file whose jobs' I/Os
// another selected file accounts for are left out, with one note. Shared by
// make_plan (the engine) and the CLI, which leaves such files unread.
#pragma once

#include <string>
#include <vector>

#include "latscope/engine.h"
#include "query/aligner.h"

namespace latscope {

// The note for files left out: "left out 2 logs that count the same I/Os as
// others used: a_clat_hist.1.log (... ); ...".
std::string accounts_note(const std::vector<std::string>& files, const std::vector<AccountChoice>& choices,
                          const std::vector<size_t>& left_out);

// Leaves out the selected series of superseded sources (unless the query
// groups by "account") and adds the note.
void keep_one_account(const std::vector<Source>& sources, const Selection& sel, const GroupBy& group_by, Plan* plan);

}  // namespace latscope
