#include "query/one_account.h"

#include <algorithm>
#include <set>

namespace latscope {

std::string accounts_note(const std::vector<std::string>& files, const std::vector<AccountChoice>& choices,
                          const std::vector<size_t>& left_out) {
  std::string o = "left out " + std::to_string(left_out.size()) + " log" + (left_out.size() == 1 ? "" : "s") +
                  " that count the same I/Os as a log used (docs/folders.md): ";
  for (size_t k = 0; k < left_out.size(); ++k) {
    const size_t i = left_out[k];
    o += (k ? "; " : "") + files[i] + " " + choices[i].why;
  }
  return o;
}

void keep_one_account(const std::vector<Source>& sources, const Selection& sel, const GroupBy& group_by, Plan* plan) {
  if (std::find(group_by.begin(), group_by.end(), kAccountLabel) != group_by.end()) return;
  // The files the user left in: a file unticked (exclude_sources) gives its
  // jobs' I/Os back to the other account.
  std::vector<FolderFile> folder;
  std::vector<std::string> names;
  for (const Source& src : sources) {
    if (source_excluded(src, sel) || account_of(src) == Account::kNone) continue;
    folder.push_back(folder_file_of(src));
    names.push_back(src.name);
  }
  const std::vector<AccountChoice> choices = plan_accounts(folder, sel.accounts);
  std::set<std::string> out;
  std::vector<size_t> left_out;
  for (size_t i = 0; i < choices.size(); ++i)
    if (!choices[i].used_instead.empty()) out.insert(names[i]);
  if (out.empty()) return;
  const size_t before = plan->series.size();
  plan->series.erase(std::remove_if(plan->series.begin(), plan->series.end(),
                                    [&](const Selected& x) { return out.count(x.src->name) > 0; }),
                     plan->series.end());
  if (plan->series.size() == before) return;  // none of them was selected
  for (size_t i = 0; i < choices.size(); ++i)
    if (!choices[i].used_instead.empty()) left_out.push_back(i);
  plan->notes.push_back(accounts_note(names, choices, left_out));
}

}  // namespace latscope
