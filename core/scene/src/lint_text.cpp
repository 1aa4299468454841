// Lint rule about texts: a scene's texts that the app shows cut (text_limits.hpp) — its name,
// the agents' ids and the view's hint.

#include <algorithm>
#include <string>
#include <vector>

#include "lint_rules.hpp"
#include "orca/scene/text_limits.hpp"

namespace orca::scene::lint {

void checkTextTooLong(Context& c) {
    const Scene& s = c.scene;
    if (textIsCut(s.name, kMaxTitleBytes))
        c.add("name", "the scene's name is " + textCutWarning(s.name.size(), kMaxTitleBytes), {},
              {0.0, 0.0});
    // The view block's hint, shown over the world view until dismissed.
    if (const auto view = s.extra.find("view"); view != s.extra.end() && view->is_object()) {
        const auto hint = view->find("hint");
        if (hint != view->end() && hint->is_string()) {
            const std::string& text = hint->get_ref<const std::string&>();
            if (textIsCut(text, kMaxTitleBytes))
                c.add("view.hint", "the hint is " + textCutWarning(text.size(), kMaxTitleBytes), {},
                      {0.0, 0.0});
        }
    }
    // Agent ids (shown in tooltips, the Inspector and the Parameters panel): one finding for
    // all of them, at the first.
    std::vector<std::size_t> agents;
    std::size_t longest = 0;
    for (std::size_t i = 0; i < s.agents.size(); ++i) {
        const auto& id = s.agents[i].id;
        if (!id || !id->is_string()) continue;
        const std::string& text = id->get_ref<const std::string&>();
        if (!textIsCut(text, kMaxTitleBytes)) continue;
        agents.push_back(i);
        longest = std::max(longest, text.size());
    }
    if (agents.empty()) return;
    const std::string who =
        agents.size() == 1 ? "the id of " + agentList(agents) : "the ids of " + agentList(agents);
    c.add(agentPath(agents.front()) + ".id",
          who + (agents.size() == 1 ? " is " : " are up to ") +
              textCutWarning(longest, kMaxTitleBytes),
          agentElements(agents), s.agents[agents.front()].position);
}

} // namespace orca::scene::lint
