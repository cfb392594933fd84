#include "pipeline_view.h"

#include <algorithm>
#include <string>
#include <vector>

namespace scanlab::view {

namespace {
constexpr float kPipelineMargin = 12.0f;
constexpr float kPipelineLabelWidth = 170.0f;
constexpr float kRowHeight = 22.0f;
constexpr Rgb kSpun{240, 150, 40};
constexpr Rgb kStall{230, 50, 50};
constexpr Rgb kWaitQuick{120, 122, 132};
constexpr Rgb kArrive{235, 235, 240};

std::string ticks(std::uint64_t t) {
    return std::to_string(t);
}
} // namespace

Rgb stage_colour(std::uint32_t stage) {
    return hsv_colour(0.55f + 0.13f * static_cast<float>(stage % 8), 0.55f, 0.9f);
}

const PipelineModel* PipelineView::model(const LoadedTrace& loaded, const Selection& selection) {
    return cache_.get<PipelineError>(loaded, selection, build_pipeline_model);
}

void PipelineView::draw(const LoadedTrace& loaded, Selection& selection, ImVec2 size) {
    const PipelineModel* m = model(loaded, selection);
    canvas_.begin("##pipeline", size, false);
    ImDrawList* list = ImGui::GetWindowDrawList();
    list->PushClipRect(canvas_.min(), canvas_.max(), true);
    list->AddRectFilled(canvas_.min(), canvas_.max(), palette::kBackground.u32());
    if (!m) {
        list->AddText(nullptr, 0.0f, {canvas_.min().x + 12, canvas_.min().y + 12},
                      palette::kWrongText.u32(), error().c_str(), nullptr, canvas_.size().x - 24);
        list->PopClipRect();
        return;
    }
    const float font = ImGui::GetFontSize();
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    std::string tip;
    const float left = canvas_.min().x + kPipelineMargin + kPipelineLabelWidth;
    const float width =
        std::max(50.0f, canvas_.size().x - 2 * kPipelineMargin - kPipelineLabelWidth);
    // A block that stalled polls until the trace ends, often for far longer than it worked:
    // the ticks after its last activity get the axis' last eighth, so the work stays readable.
    const std::uint64_t active = std::max(m->active_end, m->begin);
    const bool squeeze = !m->ended && m->stalls() > 0 && m->end - active > (active - m->begin) / 4;
    const std::uint64_t axis_end = squeeze ? active + (active - m->begin) / 50 + 1 : m->end;
    const float worked = squeeze ? 0.875f : 1.0f;
    const double span = static_cast<double>(std::max<std::uint64_t>(1, axis_end - m->begin));
    const double tail = static_cast<double>(std::max<std::uint64_t>(1, m->end - axis_end));
    const auto x_of = [&](std::uint64_t t) {
        const double at = t <= axis_end ? (static_cast<double>(t) - m->begin) / span * worked
                                        : worked + (t - axis_end) / tail * (1.0 - worked);
        return left + canvas_.pan().x + static_cast<float>(at) * width * canvas_.zoom();
    };
    const auto hovered = [&](float x0, float y0, float x1, float y1) {
        return canvas_.hovered() && mouse.x >= x0 - 2 && mouse.x <= x1 + 2 && mouse.y >= y0 &&
               mouse.y <= y1;
    };
    float y = canvas_.min().y + kPipelineMargin + canvas_.pan().y;
    const std::string title =
        "block " + std::to_string(m->block) + ": ticks " + ticks(m->begin) + ".." + ticks(m->end) +
        (m->ended                 ? ""
         : loaded.trace.truncated ? " (the recording was cut before its end)"
                                  : " (no end: the block did not finish)") +
        ", " + std::to_string(m->stages.size()) + " stages, " + std::to_string(m->stalls()) +
        " stalled waits, " + std::to_string(m->early_reads()) + " reads before readable" +
        (m->died_early ? "; it issued no bulk copy before it failed" : "");
    list->AddText({canvas_.min().x + kPipelineMargin, y}, palette::kText.u32(), title.c_str());
    y += font + 8;

    // A wait open at the end waits forever when the run ended (or the emulator found it
    // deadlocked); in a recording cut short it may only be slow.
    const bool forever =
        !loaded.trace.truncated ||
        std::any_of(m->marks.begin(), m->marks.end(), [&](const PipelineMark& mark) {
            return loaded.trace.findings[mark.finding].kind == trace::FindingKind::deadlock;
        });

    // A band per stage: fill (copy issued .. readable), then held (readable .. released).
    for (std::uint32_t s = 0; s < m->stages.size(); ++s) {
        const Rgb colour = stage_colour(s);
        const std::string label =
            "stage " + std::to_string(s) + " (" + m->barriers[m->stages[s].fill_barrier].name + ")";
        list->AddText({canvas_.min().x + kPipelineMargin, y + 3}, colour.u32(), label.c_str());
        for (const StageFill& f : m->fills) {
            if (f.stage != s) continue;
            const std::uint64_t began = f.copy ? *f.copy : f.full ? *f.full : m->end;
            const float x0 = x_of(began);
            const float xf = x_of(f.full ? *f.full : m->end);
            const float x1 = x_of(f.released ? *f.released : m->end);
            list->AddRectFilled({x0, y + 4}, {xf, y + kRowHeight - 4}, colour.u32());
            list->AddRect({xf, y + 2}, {std::max(x1, xf + 1), y + kRowHeight - 2}, colour.u32());
            if (f.landed)
                list->AddLine({x_of(*f.landed), y + 1}, {x_of(*f.landed), y + kRowHeight - 1},
                              palette::kText.u32());
            if (f.refill_early)
                list->AddRect({x0 - 1, y + 1}, {xf + 1, y + kRowHeight - 1}, kStall.u32(), 0.0f, 0,
                              2.0f);
            // What went wrong with the fill, in one label (right-aligned near the axis' end).
            std::string wrong;
            if (f.refill_early) wrong = "refilled before its release: a race with its readers";
            if (f.read_early) wrong += std::string(wrong.empty() ? "" : "; ") + "read early";
            if (!f.full) wrong += std::string(wrong.empty() ? "" : "; ") + "never readable";
            if (!wrong.empty()) {
                const float w = ImGui::CalcTextSize(wrong.c_str()).x;
                const float at = x0 + 2 + w > canvas_.max().x - kPipelineMargin
                                     ? std::max(left, canvas_.max().x - kPipelineMargin - w)
                                     : x0 + 2;
                list->AddText({at, y + 3}, kStall.u32(), wrong.c_str());
            }
            if (hovered(x0, y, std::max(x1, xf + 1), y + kRowHeight))
                tip = "stage " + std::to_string(s) + ", fill " + std::to_string(f.round) +
                      (f.copy ? "\nbulk copy of " + std::to_string(f.bytes) + " bytes issued at " +
                                    ticks(*f.copy)
                              : "\nno bulk copy (filled by plain stores, or an end marker)") +
                      (f.landed ? "\nbytes landed at " + ticks(*f.landed) : "") +
                      (f.full ? "\nphase completed (readable) at " + ticks(*f.full)
                              : "\nits phase never completed") +
                      (f.first_read ? "\nread " + ticks(*f.first_read) + ".." + ticks(*f.last_read)
                                    : "\nits bytes were not read") +
                      (f.released ? "\nreleased at " + ticks(*f.released)
                                  : "\nnot released in the trace") +
                      (f.read_early ? "\nREAD BEFORE IT WAS READABLE" : "") +
                      (f.refill_early ? "\nREFILLED BEFORE THE FILL BEFORE WAS RELEASED" : "");
        }
        y += kRowHeight;
    }
    y += 6;

    // A row per warp.
    for (const PipelineWarp& w : m->warps) {
        const std::string label = "warp " + std::to_string(w.warp) + ": " + role_name(w.role);
        list->AddText({canvas_.min().x + kPipelineMargin, y + 3}, palette::kText.u32(),
                      label.c_str());
        list->AddLine({left, y + kRowHeight - 1}, {canvas_.max().x, y + kRowHeight - 1},
                      palette::kGrid.u32());
        const float mid = y + kRowHeight / 2;
        std::vector<std::pair<float, const PipelineWait*>> stalled; // labelled after the row
        for (const PipelineWait& wait : m->waits) {
            if (wait.warp != w.warp) continue;
            const float x0 = x_of(wait.begin);
            const float x1 = std::max(x_of(wait.end), x0 + 2);
            const bool spun = wait.polls > 0;
            const Rgb colour = !wait.completed ? kStall : spun ? kSpun : kWaitQuick;
            const float half = !wait.completed ? 8.0f : spun ? 5.0f : 2.0f;
            list->AddRectFilled({x0, mid - half}, {x1, mid + half}, colour.u32());
            if (hovered(x0, mid - half, x1, mid + half)) {
                const PipelineBarrier& b = m->barriers[wait.barrier];
                tip = "wait on " + b.name +
                      (b.fills      ? " (stage " + std::to_string(*b.fills) + " filled)"
                       : b.releases ? " (stage " + std::to_string(*b.releases) + " released)"
                                    : std::string()) +
                      " for parity " + std::to_string(wait.parity) + "\nticks " +
                      ticks(wait.begin) + ".." + ticks(wait.end) + ", " +
                      std::to_string(wait.polls) + " failed polls of its lanes" +
                      (wait.completed ? "" : "\nNEVER COMPLETED: " + stall_reason(*m, wait));
            }
            if (!wait.completed) stalled.emplace_back(x0, &wait);
        }
        bool early_named = false;
        for (const PipelineAccess& read : m->stage_reads) {
            if (read.warp != w.warp) continue;
            const float x = x_of(read.time);
            if (!read.early) {
                list->AddRectFilled({x, y + 3}, {x + 2, y + 7}, stage_colour(read.stage).u32());
                continue;
            }
            // A read of a stage before its fill was readable: a red tick across the row.
            list->AddRectFilled({x, y + 1}, {x + 2, y + kRowHeight - 1}, kStall.u32());
            if (hovered(x - 1, y, x + 3, y + kRowHeight))
                tip = "read of stage " + std::to_string(read.stage) + " at " + ticks(read.time) +
                      ", before the phase that makes its fill readable (no wait, or the wrong "
                      "parity)";
            if (!early_named) {
                early_named = true;
                const std::string what =
                    "reads stage " + std::to_string(read.stage) + " before it is readable";
                list->AddText({x + 5, y + 3}, kStall.u32(), what.c_str());
            }
        }
        for (const PipelineArrive& a : m->arrives) {
            if (a.warp != w.warp) continue;
            const float x = x_of(a.time);
            list->AddLine({x, y + kRowHeight - 8}, {x, y + kRowHeight - 2}, kArrive.u32());
            if (hovered(x - 1, y + kRowHeight - 8, x + 1, y + kRowHeight - 2))
                tip = "arrive on " + m->barriers[a.barrier].name + " at " + ticks(a.time);
        }
        for (const PipelineAccess& d : m->descriptors) {
            if (d.warp != w.warp) continue;
            const float x = x_of(d.time);
            list->AddCircleFilled({x, y + kRowHeight - 5}, 2.0f,
                                  (d.store ? palette::kFlagA : palette::kLookLine).u32());
            if (hovered(x - 2, y + kRowHeight - 8, x + 2, y + kRowHeight - 2))
                tip = std::string(d.store ? "descriptor store (publish)" : "descriptor read") +
                      " at " + ticks(d.time);
        }
        for (const auto& [x0, wait] : stalled) {
            // What it lacked, on the bar from its start, or ending at the canvas' edge where the
            // bar is short (a picture has no tooltips).
            const std::string why =
                (forever ? "waits forever: " : "still waiting where the recording was cut: ") +
                stall_reason(*m, *wait);
            const float w = ImGui::CalcTextSize(why.c_str()).x;
            const float edge = canvas_.max().x - kPipelineMargin;
            const float at = x0 + 4 + w > edge ? std::max(left, edge - w) : x0 + 4;
            if (at < x0) // the part left of the bar, on the background
                list->AddRectFilled({at - 2, y}, {x0, y + kRowHeight - 1},
                                    palette::kBackground.u32());
            list->AddText({at, mid - font / 2}, palette::kText.u32(), why.c_str());
        }
        for (const PipelineMark& mark : m->marks) {
            if (mark.warp != w.warp) continue;
            const float x = x_of(mark.time);
            // Inside the warp's own row, pointing down at it.
            list->AddTriangleFilled({x, y + 9}, {x - 5, y + 1}, {x + 5, y + 1},
                                    palette::kFinding.u32());
            if (hovered(x - 5, y + 1, x + 5, y + 9))
                tip = loaded.trace.findings[mark.finding].message;
        }
        y += kRowHeight;
    }
    if (squeeze) {
        // Where the axis changes scale: only failed polls (and reads) after it.
        const float x = x_of(axis_end);
        list->AddLine({x, canvas_.min().y + kPipelineMargin + font + 8}, {x, y},
                      palette::kDimText.u32());
        const std::string note = "ticks " + ticks(axis_end) + ".." + ticks(m->end) +
                                 " squeezed on the right: nothing but polls |";
        list->AddText({x - ImGui::CalcTextSize(note.c_str()).x, y}, palette::kDimText.u32(),
                      note.c_str());
        y += font;
    }
    y += 6;
    const std::string legend =
        "stage bands: filled block = copy issued .. readable (white line: bytes landed), frame = "
        "held .. released.  rows: grey = wait that passed at once, orange = a wait that spun, "
        "red = never completed; coloured ticks = reads of a stage (red across the row: read "
        "before readable), white ticks = arrives, dots = descriptor reads (A-coloured: "
        "publishes); pink triangles = findings";
    list->AddText(nullptr, 0.0f, {canvas_.min().x + kPipelineMargin, y}, palette::kDimText.u32(),
                  legend.c_str(), nullptr, canvas_.size().x - 2 * kPipelineMargin);
    // The block's findings, each once (a finding marks each of its accesses).
    std::vector<std::uint32_t> listed;
    for (const PipelineMark& mark : m->marks)
        if (std::find(listed.begin(), listed.end(), mark.finding) == listed.end())
            listed.push_back(mark.finding);
    const float wrap = canvas_.size().x - 2 * kPipelineMargin;
    y += ImGui::CalcTextSize(legend.c_str(), nullptr, false, wrap).y + 4;
    for (std::size_t k = 0; k < listed.size() && k < 4; ++k) {
        // Its report without the first line (the kernel's name, which the header shows).
        const std::string& message = loaded.trace.findings[listed[k]].message;
        const std::size_t newline = message.find('\n');
        const std::string text =
            newline == std::string::npos
                ? message
                : message.substr(0, message.find(" in kernel")) + ":" + message.substr(newline);
        list->AddText(nullptr, 0.0f, {canvas_.min().x + kPipelineMargin, y},
                      palette::kFindingText.u32(), text.c_str(), nullptr, wrap);
        y += ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap).y + 4;
    }
    list->PopClipRect();
    if (!tip.empty()) ImGui::SetTooltip("%s", tip.c_str());
}

} // namespace scanlab::view
