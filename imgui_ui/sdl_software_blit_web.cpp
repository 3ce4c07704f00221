// The page draws every frame with WebGL, so SDL's software blitters (src/video/SDL_blit*.c, SDL_RLEaccel.c: about
// 200 KB of wasm, kept alive only by SDL's surface functions, which kvcalc never calls) are replaced here by
// stubs that fail. Linked before libSDL2.a, these definitions keep the linker from pulling those objects in;
// a future SDL call that needs them gets SDL's own error path ("blit combination not supported").
#ifdef __EMSCRIPTEN__
#include <SDL.h>

extern "C" {

/// SDL_blit.c SDL_CalculateBlit: picks a blitter for a surface pair; kvcalc blits nothing in software.
int SDL_CalculateBlit(SDL_Surface*) { return SDL_SetError("kvcalc's web build has no software blitter (it draws with WebGL)"); }

/// SDL_RLEaccel.c SDL_RLESurface: run-length encodes a color-keyed surface; never asked for here.
int SDL_RLESurface(SDL_Surface*) { return -1; }

/// SDL_RLEaccel.c SDL_UnRLESurface: there is never an RLE surface to decode.
void SDL_UnRLESurface(SDL_Surface*, int) {}

}  // extern "C"
#endif
