// `orca recording FILE`: a recording's summary as JSON (docs/recording-format.md), and with
// --csv its frames as rows of exact numbers.
#include <ostream>
#include <string>

#include "cli_common.hpp"
#include "commands.hpp"
#include "orca/scene/atomic_write.hpp"
#include "orca/scene/recording.hpp"

namespace orca::cli {

int recordingCommand(const RecordingOptions& opt, std::ostream& out, std::ostream& err) {
    if (!checkOutputsDistinct("recording", {{"the recording", opt.file}}, {{"--csv", opt.csv}},
                              err))
        return kUsage;
    scene::Recording rec;
    try {
        rec = scene::loadRecording(opt.file);
    } catch (const scene::SceneError& e) {
        err << e.what() << '\n';
        return kBadInput;
    }
    if (!opt.csv.empty()) {
        scene::AtomicFile file;
        std::string error;
        bool ok = file.open(opt.csv, error) && file.write("step,agent,x,y,vx,vy,pvx,pvy\n");
        std::string rows;
        for (const scene::RecordingFrame& f : rec.frames) {
            rows.clear();
            for (std::size_t i = 0; i < f.position.size(); ++i)
                appendCsvRow(rows, f.step, i,
                             {f.position[i].x, f.position[i].y, f.velocity[i].x, f.velocity[i].y,
                              f.prefVelocity[i].x, f.prefVelocity[i].y});
            ok = ok && file.write(rows);
        }
        if (!ok || !file.commit(error)) {
            err << displayPath(opt.csv)
                << ": error: cannot write the CSV: " << (error.empty() ? file.error() : error)
                << '\n';
            return kBadInput;
        }
    }
    Json j;
    j["file"] = displayPath(opt.file);
    j["encoding"] = rec.encoding == scene::RecordingEncoding::Float32 ? "float32" : "float64";
    j["scenes"] = rec.scenes.size();
    j["frames"] = rec.frames.size();
    j["agents"] =
        rec.frames.empty() ? rec.scenes.back().agents.size() : rec.frames.back().position.size();
    j["firstStep"] = rec.frames.empty() ? Json(nullptr) : Json(rec.frames.front().step);
    j["lastStep"] = rec.frames.empty() ? Json(nullptr) : Json(rec.frames.back().step);
    j["truncated"] = rec.truncated;
    out << dumpJson(j) << '\n';
    return kOk;
}

} // namespace orca::cli
