// Entry point: wires the page (app/app.js) to the engine (engine/index.js).
import './style/main.css';
import './style/views.css';
import { createEngine } from './engine/index.js';
import { pageEngineOptions } from './engine/page-engine.js';
import { App } from './app/app.js';

const app = new App({ createEngine: async (/** @type {any} */ o) => createEngine({ ...o, ...(await pageEngineOptions()) }) });
app.init();
// For users' scripts and the end-to-end tests: the app and its state.
/** @type {any} */ (window).latscope = app;
