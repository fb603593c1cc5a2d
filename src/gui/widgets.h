#pragma once
// Small ImGui helpers shared by the panels: a zoomable image view with hover and click
// reporting, a colour bar, and a status line.

#include <imgui.h>

#include "core/spectrum.h"
#include "gui/app.h"
#include "gui/texture.h"

namespace fftscope::gui {

struct ImageViewResult {
  bool hovered = false;
  int tx = 0, ty = 0;        ///< texel under the mouse (valid when hovered)
  bool clicked = false;      ///< left button pressed this frame on the image
  bool left_down = false;    ///< left button held on the image (painting)
  ImVec2 min, max;           ///< screen rectangle of the visible image
};

/// Shows the texture fitted into `size` (aspect kept); mouse wheel zooms about the cursor,
/// right or middle drag pans, double-click resets.
ImageViewResult image_view(const char* id, const Texture& texture, ViewTransform& view, ImVec2 size);

/// Screen position of the centre of texel (x, y) in an image view drawn with `view` at [min, max].
ImVec2 texel_to_screen(const Texture& texture, const ViewTransform& view, const ImageViewResult& r, float x, float y);

/// A vertical colour bar for the colormap (or the hue wheel for phase_hue), labelled lo and hi.
void colour_bar(Colormap colormap, SpectrumComponent component, float lo, float hi, float height);

/// The largest size with the texture's aspect fitting in avail.
ImVec2 fit_size(const Texture& texture, ImVec2 avail);

/// A tooltip-style marker for help text.
void help_marker(const char* text);

}  // namespace fftscope::gui
