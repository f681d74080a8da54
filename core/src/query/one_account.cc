#include "query/one_account.h"

#include <algorithm>

namespace latscope {

std::set<std::string> accounts_left_out(const std::vector<FolderFile>& folder, const Selection& sel,
                                        const GroupBy& group_by, std::string* note) {
  note->clear();
  std::set<std::string> out;
  // Every account shown side by side: only gzip copies are left out.
  const bool all = std::find(group_by.begin(), group_by.end(), kAccountLabel) != group_by.end();
  // The logs, and the json outputs whose log prefixes tie logs of
  // different prefixes to one run (plan_accounts).
  std::vector<FolderFile> kept;
  for (const FolderFile& f : folder)
    if ((f.account != Account::kNone || f.run_file.json) && !name_excluded(f.run_file.name, sel)) kept.push_back(f);
  const std::vector<AccountChoice> choices = all ? plan_gzip_copies(kept) : plan_accounts(kept, sel.accounts);
  size_t n = 0;
  std::string list;
  for (size_t i = 0; i < choices.size(); ++i) {
    if (choices[i].used_instead.empty()) continue;
    out.insert(kept[i].run_file.name);
    list += (n++ ? "; " : "") + kept[i].run_file.name + " " + choices[i].why;
  }
  if (n)
    *note = "left out " + std::to_string(n) + " log" + (n == 1 ? "" : "s") +
            " that count the same I/Os as a log used (docs/folders.md): " + list;
  return out;
}

void keep_one_account(const SourceRefs& sources, const Selection& sel, const GroupBy& group_by, Plan* plan) {
  std::vector<FolderFile> folder;
  folder.reserve(sources.size());
  for (const Source* src : sources) folder.push_back(folder_file_of(*src));
  std::string note;
  const std::set<std::string> out = accounts_left_out(folder, sel, group_by, &note);
  if (out.empty()) return;
  const size_t before = plan->series.size();
  plan->series.erase(std::remove_if(plan->series.begin(), plan->series.end(),
                                    [&](const Selected& x) { return out.count(x.src->name) > 0; }),
                     plan->series.end());
  if (plan->series.size() != before) plan->notes.push_back(note);  // one of them was selected
}

}  // namespace latscope
