// Queries use one account of every I/O (latscope/folder.h plan_accounts,
// docs/folders.md): of the selected series, those of a file whose jobs' I/Os
// another selected file accounts for are left out, with one note. Shared by
// make_plan (the engine) and the CLI, which leaves such files unread.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "latscope/engine.h"
#include "query/aligner.h"

namespace latscope {

// The files of `folder` a query leaves out (their names), and in *note the
// sentence naming them ("" when none): the files the selection keeps
// (exclude_sources: an unticked file gives its jobs' I/Os back to the other
// account) planned by plan_accounts with Selection::accounts; none when the
// query groups by "account". The engine's make_plan and the streaming fold
// (StreamingQuery::set_folder) both decide with it.
std::set<std::string> accounts_left_out(const std::vector<FolderFile>& folder, const Selection& sel,
                                        const GroupBy& group_by, std::string* note);

// Leaves out the selected series of the sources accounts_left_out names,
// with its note when one of them was selected.
void keep_one_account(const SourceRefs& sources, const Selection& sel, const GroupBy& group_by, Plan* plan);

}  // namespace latscope
