// The Emscripten glue (web/public/wasm/latscope.mjs, built by
// web/scripts/build-wasm.sh), imported by name only in the single-file
// build (web/vite.single.config.js aliases it); generated code, not type-checked.
declare module 'latscope-wasm-glue' {
  const factory: (module: object) => Promise<any>;
  export default factory;
}
