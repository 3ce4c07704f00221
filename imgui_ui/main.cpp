// kvcalc app entry point: SDL2 window + OpenGL (ES3/WebGL2 in the browser, GL3 on a desktop) + Dear ImGui.
// The loop draws only after input or a change, so an idle page or window uses no CPU for drawing.
#include <SDL.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>
#include <imgui_internal.h>  // the test-engine hook switch, NavId
#if __has_include(<imgui_impl_sdl2.h>)
#include <imgui_impl_sdl2.h>  // Dear ImGui 1.87 and later
#else
#include <imgui_impl_sdl.h>
#endif

#include <algorithm>
#include <cstdio>
#include <vector>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#include <SDL_opengles2.h>
#else
#include <SDL_opengl.h>
#endif

#include "app.h"
#include "keyboard_nav.h"
#include "kvcalc/catalog/catalog.h"
#include "platform.h"
#include "text_proxy.h"
#include "touch_input.h"
#include "ui_font.h"

namespace {

using kvcalc::ui::App;


/// Base text size in CSS px (points); at least 14 per the phone requirement.
constexpr float kFontSizePx = 16.0f;

/// Frames drawn after the last input: ImGui needs one or two to settle hover and layout.
constexpr int kSettleFrames = 3;

struct Runtime {
    SDL_Window* window = nullptr;
    SDL_GLContext gl = nullptr;
    App app;
    int frames_to_draw = kSettleFrames;
    long frames_drawn = 0;
    float font_dpr = 0.0f;
    kvcalc::ui::TouchInput touch;
    bool quit = false;
    /// Key releases held for the next frame: Dear ImGui 1.86 reads key state once per frame, so a press and release
    /// that arrive together (a quick tap, a test driver) would never be seen as pressed.
    std::vector<SDL_Event> deferred_keyups;
    bool enter_as_space = false;  ///< the Enter key now down was turned into Space (its release is too)
};

/// (Re)builds the font atlas for the current devicePixelRatio so text stays sharp on phones.
void load_fonts(Runtime& rt, float dpr) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    ImFontConfig cfg;
    cfg.OversampleH = 1;  // DPR-sized atlas already; keeps the atlas small
#ifdef __EMSCRIPTEN__
    // The font is compiled into the binary, so it is always there: no fallback to ImGui's built-in font, whose data
    // the web build leaves out (cmake/ThirdParty.cmake).
    cfg.FontDataOwnedByAtlas = false;  // the bytes are the binary's own (ui_font.h), not a heap copy
    io.Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(kvcalc::ui::kUiFontTtf),
                                   static_cast<int>(kvcalc::ui::kUiFontTtfBytes), kFontSizePx * dpr, &cfg,
                                   kvcalc::ui::kUiGlyphRanges);
#else
    if (!io.Fonts->AddFontFromFileTTF(KVCALC_FONT_PATH, kFontSizePx * dpr, &cfg, kvcalc::ui::kUiGlyphRanges)) {
        std::fprintf(stderr, "kvcalc: the UI font did not load, using ImGui's built-in font\n");
        io.Fonts->AddFontDefault();
    }
#endif
    io.FontGlobalScale = 1.0f / dpr;
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
    rt.font_dpr = dpr;
    rt.app.ui.dpr = dpr;
}

/// Dear ImGui 1.86 maps Enter to "edit text" only; on a button, a checkbox or a combo it does nothing. Web users
/// press buttons with Enter too, so Enter counts as Space unless a text field is being edited or the focused item
/// takes text (a field or a slider, where Enter starts typing a value).
void enter_presses_buttons(Runtime& rt, SDL_Event& event) {
    if (event.type != SDL_KEYDOWN && event.type != SDL_KEYUP) return;
    if (event.key.keysym.scancode != SDL_SCANCODE_RETURN && event.key.keysym.scancode != SDL_SCANCODE_KP_ENTER) return;
    if (event.type == SDL_KEYDOWN) {
        const ImGuiContext& g = *GImGui;
        rt.enter_as_space = g.ActiveId == 0 && g.NavId != 0 && !g.NavDisableHighlight &&
                            !kvcalc::ui::focused_is_inputable();
    }
    if (!rt.enter_as_space) return;
    event.key.keysym.scancode = SDL_SCANCODE_SPACE;
    event.key.keysym.sym = SDLK_SPACE;
    if (event.type == SDL_KEYUP) rt.enter_as_space = false;
}

void frame(void* arg) {
    auto& rt = *static_cast<Runtime*>(arg);
    bool had_input = false;
    SDL_Event event;
    int event_w = 0, event_h = 0;
    SDL_GetWindowSize(rt.window, &event_w, &event_h);
    std::vector<SDL_Event> held;
    held.swap(rt.deferred_keyups);
    for (SDL_Event& up : held) {
        ImGui_ImplSDL2_ProcessEvent(&up);
        had_input = true;
    }
    std::vector<SDL_Scancode> down_now;
    while (SDL_PollEvent(&event)) {
        enter_presses_buttons(rt, event);
        if (event.type == SDL_KEYDOWN) down_now.push_back(event.key.keysym.scancode);
        if (event.type == SDL_KEYUP &&
            std::find(down_now.begin(), down_now.end(), event.key.keysym.scancode) != down_now.end()) {
            rt.deferred_keyups.push_back(event);  // seen as pressed for one frame, released on the next
            had_input = true;
            continue;
        }
        if (!kvcalc::ui::touch_event(rt.touch, event, event_w, event_h)) ImGui_ImplSDL2_ProcessEvent(&event);
        had_input = true;
        if (event.type == SDL_QUIT) rt.quit = true;
    }
    while (kvcalc::ui::poll_host(rt.app)) had_input = true;  // typed text, a pasted or fetched config.json
    // The page may resize the canvas (rotation, window resize): follow it.
    const kvcalc::ui::ViewSize host = kvcalc::ui::host_view_size();
    int win_w = 0, win_h = 0;
    SDL_GetWindowSize(rt.window, &win_w, &win_h);
    if (host.width > 0 && host.height > 0 && (host.width != win_w || host.height != win_h)) {
        SDL_SetWindowSize(rt.window, host.width, host.height);
        win_w = host.width;
        win_h = host.height;
        had_input = true;
    }
    const float dpr = kvcalc::ui::device_pixel_ratio();
    if (dpr != rt.font_dpr) {
        load_fonts(rt, dpr);
        had_input = true;
    }
    if (had_input) rt.frames_to_draw = std::max(rt.frames_to_draw, kSettleFrames);
    if (kvcalc::ui::recompute_if_dirty(rt.app)) {
        rt.frames_to_draw = std::max(rt.frames_to_draw, kSettleFrames);
        if (rt.frames_drawn == 0) kvcalc::ui::mark_startup("first_recompute_done");
    }
    if (rt.frames_to_draw <= 0) return;  // idle: nothing changed, keep the last picture
    --rt.frames_to_draw;

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplSDL2_NewFrame();
    kvcalc::ui::touch_apply(rt.touch, ImGui::GetIO());
    rt.app.ui.touch_input = kvcalc::ui::touch_busy(rt.touch);
    if (rt.app.ui.touch_input) rt.app.ui.coarse_pointer = true;
    ImGui::NewFrame();
    kvcalc::ui::apply_nav_request();
    if (kvcalc::ui::draw_app(rt.app, static_cast<float>(win_w), static_cast<float>(win_h)))
        rt.frames_to_draw = std::max(rt.frames_to_draw, kSettleFrames);
    if (ImGui::IsAnyItemActive() || kvcalc::ui::touch_busy(rt.touch))  // dragging a slider or a finger
        rt.frames_to_draw = std::max(rt.frames_to_draw, 1);
    kvcalc::ui::sync_text_proxy(rt.app.ui);
    kvcalc::ui::end_nav_frame(rt.app.ui);
    ImGui::Render();

    int fb_w = 0, fb_h = 0;
    SDL_GL_GetDrawableSize(rt.window, &fb_w, &fb_h);
    glViewport(0, 0, fb_w, fb_h);
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    glClearColor(bg.x, bg.y, bg.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    SDL_GL_SwapWindow(rt.window);
    ++rt.frames_drawn;
    kvcalc::ui::report_frames_drawn(rt.frames_drawn);
    kvcalc::ui::sync_host(rt.app);
    if (rt.frames_drawn == 1) kvcalc::ui::notify_ready();
}

}  // namespace

int main(int, char**) {
    kvcalc::ui::mark_startup("main");
    SDL_SetHint(SDL_HINT_TOUCH_MOUSE_EVENTS, "0");  // fingers are mapped by touch_input.cpp, not twice
    if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) {
        std::fprintf(stderr, "kvcalc: SDL_Init failed: %s\n", SDL_GetError());
        return 1;
    }
#ifdef __EMSCRIPTEN__
    const char* glsl_version = "#version 300 es";
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_ES);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0);
    // Keyboard events go to the canvas only, so the page's own shortcuts keep working.
    SDL_SetHint(SDL_HINT_EMSCRIPTEN_KEYBOARD_ELEMENT, "#canvas");
#else
    const char* glsl_version = "#version 130";
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 0);
#endif
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    kvcalc::ui::ViewSize size = kvcalc::ui::host_view_size();
    if (size.width <= 0 || size.height <= 0) size = {1280, 800};
    static Runtime rt;  // lives for the whole program; the browser main loop outlives main()
    rt.window = SDL_CreateWindow("kvcalc — will it fit?", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, size.width,
                                 size.height, SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    if (!rt.window) {
        std::fprintf(stderr, "kvcalc: SDL_CreateWindow failed: %s\n", SDL_GetError());
        return 1;
    }
    rt.gl = SDL_GL_CreateContext(rt.window);
    if (!rt.gl) {
        std::fprintf(stderr, "kvcalc: no OpenGL context (WebGL2 missing?): %s\n", SDL_GetError());
        return 1;
    }
    SDL_GL_MakeCurrent(rt.window, rt.gl);
    kvcalc::ui::mark_startup("gl_context");
    SDL_GL_SetSwapInterval(1);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // no imgui.ini: the URL is the saved state
    io.ConfigInputTextCursorBlink = false;  // a blinking cursor would force redraws while idle
    // Arrows move between controls, Space presses, Enter edits (and presses buttons: enter_presses_buttons),
    // Escape closes; Tab is the page's (keyboard_nav.h).
    io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
    GImGui->TestEngineHookItems = true;  // every item's id, label and state reach keyboard_nav.cpp
    ImGui::StyleColorsDark();
    ImGui_ImplSDL2_InitForOpenGL(rt.window, rt.gl);
    ImGui_ImplOpenGL3_Init(glsl_version);

    kvcalc::model_catalog();  // built once (parses the embedded config.json texts); timed apart from the first recompute
    kvcalc::ui::mark_startup("catalog");
    kvcalc::ui::load_from_url(rt.app);
    load_fonts(rt, kvcalc::ui::device_pixel_ratio());
    kvcalc::ui::mark_startup("fonts");

#ifdef __EMSCRIPTEN__
    emscripten_set_main_loop_arg(frame, &rt, 0, true);
#else
    while (!rt.quit) {
        if (rt.frames_to_draw <= 0 && !rt.app.dirty) SDL_WaitEventTimeout(nullptr, 250);
        frame(&rt);
    }
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
    SDL_GL_DeleteContext(rt.gl);
    SDL_DestroyWindow(rt.window);
    SDL_Quit();
#endif
    return 0;
}
