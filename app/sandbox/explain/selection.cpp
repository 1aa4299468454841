#include "explain/selection.hpp"

#include <algorithm>
#include <charconv>
#include <limits>

#include "orca/simulator.hpp"

namespace orca::app {

void Selection::click(AgentId id, bool toggle) {
    const auto it = std::find(m_ids.begin(), m_ids.end(), id);
    if (!toggle) {
        m_ids.assign(1, id);
        m_primary = id;
        return;
    }
    if (it != m_ids.end()) {
        m_ids.erase(it);
        if (m_primary == id) m_primary = m_ids.empty() ? AgentId{} : m_ids.back();
        return;
    }
    m_ids.push_back(id);
    m_primary = id;
}

void Selection::clear() {
    m_ids.clear();
    m_primary = {};
}

void Selection::set(std::vector<AgentId> ids) {
    m_ids.clear();
    for (const AgentId id : ids)
        if (std::find(m_ids.begin(), m_ids.end(), id) == m_ids.end()) m_ids.push_back(id);
    m_primary = m_ids.empty() ? AgentId{} : m_ids.back();
}

bool Selection::contains(AgentId id) const {
    return std::find(m_ids.begin(), m_ids.end(), id) != m_ids.end();
}

std::vector<std::size_t> Selection::indices(const Simulator& sim) const {
    std::vector<std::size_t> out;
    for (const AgentId id : m_ids)
        if (const auto i = sim.indexOf(id)) out.push_back(*i);
    return out;
}

std::optional<std::size_t> Selection::primaryIndex(const Simulator& sim) const {
    if (m_primary.isNull()) return std::nullopt;
    return sim.indexOf(m_primary);
}

void Selection::remap(const Simulator& from, const Simulator& to) {
    const std::optional<std::size_t> primary = primaryIndex(from);
    std::vector<AgentId> ids;
    for (const std::size_t i : indices(from))
        if (i < to.agentCount()) ids.push_back(to.agentIdAt(i));
    m_ids = std::move(ids);
    if (primary && *primary < to.agentCount())
        m_primary = to.agentIdAt(*primary);
    else
        m_primary = m_ids.empty() ? AgentId{} : m_ids.back();
}

void Selection::prune(const Simulator& sim) {
    std::erase_if(m_ids, [&](AgentId id) { return !sim.contains(id); });
    if (!m_primary.isNull() && !sim.contains(m_primary))
        m_primary = m_ids.empty() ? AgentId{} : m_ids.back();
}

std::string parseIndexList(std::string_view text, std::vector<std::size_t>& out) {
    std::vector<std::size_t> result;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t comma = text.find(',', start);
        if (comma == std::string_view::npos) comma = text.size();
        const std::string_view word = text.substr(start, comma - start);
        std::size_t value = 0;
        const auto r = std::from_chars(word.data(), word.data() + word.size(), value);
        if (word.empty() || r.ec != std::errc() || r.ptr != word.data() + word.size())
            return "expected agent indices such as 0 or 2,5,7; got '" + std::string(text) + "'";
        result.push_back(value);
        start = comma + 1;
    }
    out = std::move(result);
    return {};
}

std::optional<std::size_t> pickAgent(const Simulator& sim, const ui::Camera& camera, Vec2 screen,
                                     double minPixels) {
    const Vec2 w = camera.screenToWorld(screen);
    const double minWorld = minPixels / camera.scale();
    const auto positions = sim.positions();
    const auto params = sim.agentParams();
    std::optional<std::size_t> best;
    double bestDistSq = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const Vec2 d = positions[i] - w;
        const double distSq = d.x * d.x + d.y * d.y;
        const double r = std::max(params[i].radius, minWorld);
        if (distSq <= r * r && distSq < bestDistSq) {
            bestDistSq = distSq;
            best = i;
        }
    }
    return best;
}

void clampConstruction(ui::ConstructionState& c, const ExplainRecord* rec) {
    const int n = rec ? ui::constructionCount(*rec) : 0;
    c.neighbor = std::clamp(c.neighbor, 0, std::max(n - 1, 0));
    c.phase = std::clamp(c.phase, 0, kConstructionPhases - 1);
}

void stepConstruction(ui::ConstructionState& c, const ExplainRecord* rec, int neighborDelta,
                      int phaseDelta) {
    const int n = rec ? ui::constructionCount(*rec) : 0;
    clampConstruction(c, rec);
    if (neighborDelta != 0)
        c.neighbor = std::clamp(c.neighbor + neighborDelta, 0, std::max(n - 1, 0));
    if (phaseDelta > 0) {
        if (c.phase + 1 < kConstructionPhases) {
            ++c.phase;
        } else if (c.neighbor + 1 < n) {
            ++c.neighbor;
            c.phase = 0;
        }
    } else if (phaseDelta < 0) {
        if (c.phase > 0) {
            --c.phase;
        } else if (c.neighbor > 0) {
            --c.neighbor;
            c.phase = kConstructionPhases - 1;
        }
    }
}

} // namespace orca::app
