#pragma once
/// \file explain_text.hpp
/// The words of the explain overlays, as strings built from the core's explain records (no
/// ImGui): tooltips, the panel's status lines, construction captions and the legend entries
/// that name a share of u. Every text that names the share of u a line was built with reads it
/// from the record (ExplainLine::share), never assumes RVO2's ½.
///
/// The share rule (shareOfU): 1 is written "u"; ¼, ½ and ¾ with their fraction signs ("½u",
/// "¾u", the Latin-1 glyphs the app's font has); any other share as a decimal of three
/// significant digits with a middle dot ("0.6·u", "0.333·u").

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "orca/explain.hpp"

namespace orca::ui {

/// An agent id as shown in the UI: "#slot", or "#slot:generation" once the slot was reused.
[[nodiscard]] std::string formatAgentId(AgentId id);

/// The coefficient of u for a share, as written before "u": "" (1), "¼", "½", "¾", or e.g.
/// "0.6·" (see the share rule above).
[[nodiscard]] std::string shareCoefficient(double share);

/// share·u as written: "u", "½u", "¾u", "0.6·u".
[[nodiscard]] std::string shareOfU(double share);

/// A one-line description of a line for tooltips: neighbour (`neighborName` when not empty,
/// e.g. the scene's agent id, else formatAgentId / "obstacle #slot segment k"), case
/// (toString(LineCase)), the share of u A takes (with "static neighbour" for a static agent),
/// distance, time to collision ("∞" when none), violation by v_new. Empty for an out-of-range
/// line.
[[nodiscard]] std::string describeLine(const ExplainRecord& rec, int line,
                                       std::string_view neighborName = {});

/// The text lines of the panel's status block: agent, line counts, "feasible" or
/// "infeasible: LP2 failed at line k", LP3 depth. Static agents get one line saying so.
[[nodiscard]] std::vector<std::string> summaryLines(const ExplainRecord& rec);

/// The caption of construction phase `phase` (0–2) for line `line` of `rec` (agent or
/// obstacle line; ConstructionGeometry::caption). Phase 2 of an agent line names the line's
/// share: "Each agent takes half the responsibility" at ½ (as RVO2), "Each agent takes ¾ of
/// u" otherwise, and for a static neighbour that it never moves and A alone takes its share
/// (staticResponsibility). Empty for an out-of-range line.
[[nodiscard]] std::string constructionCaption(const ExplainRecord& rec, int line, int phase);

/// The legend entry of the u arrows of the normal overlays: "v -> v+½u" — the share(s) of the
/// record's agent lines (the entry has their colour), several joined with " or " in
/// increasing order ("v -> v+½u or v+u" when static neighbours take all of u); RVO2's ½ when
/// the record has no agent line.
[[nodiscard]] std::string uArrowLegend(const ExplainRecord& rec);

} // namespace orca::ui
