#include "orca/scene/events_json.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace orca {

using Json = nlohmann::ordered_json;

Json toJson(const Event& event) {
    Json j;
    j["step"] = event.step;
    j["kind"] = std::string(toString(event.kind));
    j["agents"] = event.agents;
    j["obstacle"] = event.obstacle ? Json(*event.obstacle) : Json(nullptr);
    // JSON has no infinity or NaN.
    j["value"] = std::isfinite(event.value) ? Json(event.value) : Json(nullptr);
    return j;
}

Json toJson(std::span<const Event> events) {
    Json j = Json::array();
    for (const Event& e : events)
        j.push_back(toJson(e));
    return j;
}

Event eventFromJson(const Json& j) {
    Event e;
    e.step = j.at("step").get<std::uint64_t>();
    const std::string kind = j.at("kind").get<std::string>();
    const std::optional<EventKind> k = eventKindFromString(kind);
    if (!k) throw std::invalid_argument("unknown event kind \"" + kind + "\"");
    e.kind = *k;
    e.agents = j.at("agents").get<std::vector<std::uint32_t>>();
    const Json& obstacle = j.at("obstacle");
    if (!obstacle.is_null()) e.obstacle = obstacle.get<std::uint32_t>();
    const Json& value = j.at("value");
    if (value.is_null()) throw std::invalid_argument("event value is null");
    e.value = value.get<double>();
    return e;
}

nlohmann::ordered_json eventCountsJson(const std::array<std::size_t, kEventKindCount>& counts) {
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    for (std::size_t k = 0; k < kEventKindCount; ++k)
        j[std::string(toString(static_cast<EventKind>(k)))] = counts[k];
    return j;
}

} // namespace orca
