// One account of every I/O (latscope/folder.h, docs/folders.md "One account
// of every I/O"). fio's usual set-up writes write_hist_log and write_lat_log
// for the same jobs: both files count every I/O of the job (the histogram
// log in windows of counts, the per-I/O log one line per I/O), so adding
// them counts each I/O twice. The plan keeps one file per (run, host, job,
// latency kind, log prefix unless the run's json names it) and names the
// others.
#include <algorithm>
#include <cstdint>
#include <map>
#include <tuple>

#include "latscope/folder.h"

namespace latscope {

const char* account_name(Account a) {
  switch (a) {
    case Account::kHist: return "hist";
    case Account::kPerIo: return "per-io";
    case Account::kAvg: return "avg";
    case Account::kNone: break;
  }
  return "";
}

bool parse_account(const std::string& text, Account* out) {
  if (text == "hist") *out = Account::kHist;
  else if (text == "per-io") *out = Account::kPerIo;
  else return false;
  return true;
}

Account account_of(const Source& src) {
  if (!src.status.ok()) return Account::kNone;
  if (src.format == FileFormat::kFioHist) return Account::kHist;
  if (src.format == FileFormat::kResult) {
    // A log reduced as it was read (the page's memory budget, docs/
    // page-loading.md section 7) keeps its labels: the account of every
    // series, when they agree, is still the file's.
    Account a = Account::kNone;
    for (const Series& s : src.series) {
      const std::string* v = s.labels.find(kAccountLabel);
      Account b = Account::kNone;
      if (!v || !parse_account(*v, &b) || (a != Account::kNone && a != b)) return Account::kNone;
      a = b;
    }
    return a;
  }
  if (src.format != FileFormat::kFioLat) return Account::kNone;
  for (const Series& s : src.series)
    if (s.role == Role::kWindowValues) return Account::kAvg;
  return Account::kPerIo;
}

namespace {

const char* account_words(Account a) {
  return a == Account::kHist ? "histogram log" : a == Account::kPerIo ? "per-I/O log" : "log";
}

std::string base_of(const std::string& path) {
  const size_t s = path.find_last_of("/\\");
  return s == std::string::npos ? path : path.substr(s + 1);
}

}  // namespace

std::vector<size_t> gzip_copies(const std::vector<FolderFile>& files) {
  std::vector<size_t> out(files.size(), SIZE_MAX);
  std::map<std::string, size_t> plain;  // name -> index, for the logs not named .gz
  // Logs, and fio's json outputs: a json+ copied beside itself would be a
  // second run's json (runs.h: fio writes one per run) and count fio's I/Os twice.
  const auto is_log = [](const FolderFile& f) {
    return (f.account != Account::kNone || f.run_file.json) && f.head_hash != 0;
  };
  for (size_t i = 0; i < files.size(); ++i)
    if (is_log(files[i])) plain.emplace(files[i].run_file.name, i);
  for (size_t i = 0; i < files.size(); ++i) {
    const std::string& n = files[i].run_file.name;
    if (!is_log(files[i]) || n.size() < 4 || n.compare(n.size() - 3, 3, ".gz") != 0) continue;
    const auto it = plain.find(n.substr(0, n.size() - 3));
    if (it != plain.end() && files[it->second].head_hash == files[i].head_hash) out[i] = it->second;
  }
  return out;
}

std::vector<AccountChoice> plan_gzip_copies(const std::vector<FolderFile>& files) {
  std::vector<AccountChoice> out(files.size());
  const std::vector<size_t> copies = gzip_copies(files);
  for (size_t i = 0; i < files.size(); ++i) {
    if (copies[i] == SIZE_MAX) continue;
    out[i].used_instead = files[copies[i]].run_file.name;
    out[i].why = "a gzip copy of " + base_of(out[i].used_instead) +
                 " (the same text at its start), which is used; adding both would count each I/O twice";
  }
  return out;
}

std::vector<AccountChoice> plan_accounts(const std::vector<FolderFile>& files, const std::vector<Account>& prefer_in) {
  std::vector<Account> prefer = prefer_in;
  for (Account a : kDefaultAccounts)  // the default order completes the user's
    if (std::find(prefer.begin(), prefer.end(), a) == prefer.end()) prefer.push_back(a);
  using Key = std::tuple<std::string, std::string, std::string, std::string, std::string>;
  std::map<Key, std::vector<size_t>> by_key;
  // The log prefixes each run's json output names (runs.h RunFile::prefixes):
  // logs under any of them are that run's, whatever the prefix.
  std::map<std::string, std::vector<std::string>> named;
  for (const FolderFile& f : files)
    if (f.run_file.json) named[f.run].insert(named[f.run].end(), f.run_file.prefixes.begin(), f.run_file.prefixes.end());
  std::vector<AccountChoice> out = plan_gzip_copies(files);
  for (size_t i = 0; i < files.size(); ++i) {
    const FolderFile& f = files[i];
    if (!out[i].used_instead.empty()) continue;  // a gzip copy
    if (f.account != Account::kHist && f.account != Account::kPerIo) continue;
    const FileIdentity& id = f.run_file.id;
    // fio's histogram logs hold completion latencies (NAME_clat_hist): the
    // clat kind of the per-I/O logs; a name without a kind reads as clat too.
    const std::string kind = id.kind.empty() ? "clat" : id.kind;
    // Without a json output naming it, the prefix is what tells two runs'
    // logs apart (docs/folders.md): a job's histogram and per-I/O logs under
    // two prefixes are one job only when the run's json names both.
    const std::vector<std::string>& p = named[f.run];
    const bool in_json = std::find(p.begin(), p.end(), id.prefix) != p.end();
    // ("/" + prefix: no file name's prefix holds a '/', so never "").
    by_key[Key{f.run, id.host, id.job, kind, in_json ? std::string() : "/" + id.prefix}].push_back(i);
  }
  for (const auto& [key, idx] : by_key) {
    // Two files of one account under one key are two runs' logs (runs.h
    // splits them) or a choice of the user's (--run-by none): not ours.
    Account pick = Account::kNone;
    for (Account a : prefer)
      if (std::any_of(idx.begin(), idx.end(), [&](size_t i) { return files[i].account == a; })) {
        pick = a;
        break;
      }
    if (std::all_of(idx.begin(), idx.end(), [&](size_t i) { return files[i].account == pick; })) continue;
    const FolderFile& u = files[*std::find_if(idx.begin(), idx.end(), [&](size_t i) { return files[i].account == pick; })];
    const std::string& job = std::get<2>(key);
    const std::string& host = std::get<1>(key);
    const std::string what = (job.empty() ? std::string("the jobs") : "job " + job) +
                             (host.empty() ? std::string() : " on " + host) + " (" + std::get<3>(key) + ")";
    for (size_t i : idx) {
      if (files[i].account == pick) continue;
      AccountChoice& c = out[i];
      c.used_instead = u.run_file.name;
      c.why = std::string("counts the same I/Os of ") + what + " as the " + account_words(pick) + " " +
              base_of(u.run_file.name) + ", which is used" +
              (pick == Account::kPerIo ? " (every I/O, exact, the unlogged last window included)" : "") +
              "; adding both would count each I/O twice (--account " + account_name(files[i].account) +
              " uses this one, --group-by account shows both)";
    }
  }
  return out;
}

}  // namespace latscope
