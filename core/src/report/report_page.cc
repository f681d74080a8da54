// The report page's data block (docs/ci-reports.md, "The template contract").
#include "latscope/report_page.h"

#include "codec/base64.h"
#include "latscope/report.h"

namespace latscope {

std::string script_json_string(const std::string& s) {
  const std::string j = json_escape(s);
  std::string o;
  o.reserve(j.size());
  for (size_t i = 0; i < j.size(); ++i) {
    // Inside <script>, "</" may close the element (HTML's script data state)
    // and "<!--" enters the escaped state: "</" is written "<\/" (the
    // template contract, docs/ci-reports.md) and every other '<' and '>' as
    // \u003c / \u003e, so no tag-like text from a name stands in the page.
    // JSON.parse reads all of them back unchanged.
    if (j[i] == '<' && i + 1 < j.size() && j[i + 1] == '/') {
      o += "<\\/";
      ++i;
    } else if (j[i] == '<') {
      o += "\\u003c";
    } else if (j[i] == '>') {
      o += "\\u003e";
    } else {
      o += j[i];
    }
  }
  return o;
}

namespace {

// The one place in the template where `marker` stands, or an error naming it.
Status find_once(const std::string& page, const std::string& marker, size_t* at) {
  *at = page.find(marker);
  if (*at == std::string::npos)
    return Status::Error(ErrorCode::kInvalidArgument,
                         "the template has no " + marker + " (is it latscope's web/dist/latscope.html, built by this version?)");
  if (page.find(marker, *at + 1) != std::string::npos)
    return Status::Error(ErrorCode::kInvalidArgument, "the template holds " + marker + " more than once");
  return Status::Ok();
}

}  // namespace

Status embed_report(const std::string& page_template, const std::string& name, const uint8_t* result, size_t n,
                    std::string* out, const std::string& sla, const std::string& trust, const std::string& static_html,
                    const std::string& group_by) {
  std::string page = page_template;
  if (!static_html.empty()) {
    size_t s_at = 0;
    Status st = find_once(page, kReportStaticMarker, &s_at);
    if (!st.ok()) return st;
    page.replace(s_at, std::string(kReportStaticMarker).size(), static_html);
  }
  const std::string marker = kReportDataMarker;
  size_t at = 0;
  if (Status st = find_once(page, marker, &at); !st.ok()) return st;
  const size_t null_at = at + marker.find(">null<") + 1;
  // '<' and '>' occur in JSON text only inside strings: escaped there, no
  // name in the trust rows can end the element (as script_json_string).
  std::string safe_trust;
  for (char c : trust) safe_trust += c == '<' ? std::string("\\u003c") : c == '>' ? std::string("\\u003e") : std::string(1, c);
  const std::string data = "{\"version\":1,\"name\":" + script_json_string(name) + ",\"result\":\"" +
                           base64_encode(result, n) + "\",\"view\":{" +
                           (sla.empty() ? std::string() : "\"sla\":" + script_json_string(sla)) +
                           (sla.empty() || group_by.empty() ? "" : ",") +
                           (group_by.empty() ? std::string() : "\"group_by\":" + script_json_string(group_by)) + "}" +
                           (safe_trust.empty() ? std::string() : ",\"trust\":" + safe_trust) + "}";
  *out = page.substr(0, null_at) + data + page.substr(null_at + 4);
  return Status::Ok();
}

}  // namespace latscope
