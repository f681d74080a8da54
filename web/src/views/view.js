// What the app and a view agree on (app/view-registry.js registers the
// five views behind it): the view draws from data it is given, and reads
// and writes only its own settings in the one store. It imports nothing of
// the app.

/**
 * The one store as a view sees it: the page's state, and `set` for what a
 * view changes itself (a zoom, a hidden series, the surface's percentile).
 * @typedef {object} ViewStore
 * @property {import('../model/state.js').State} state
 * @property {(patch: Partial<import('../model/state.js').State>) => void} set
 */

/**
 * A view behind the registry: data in (setData, each view's own answer),
 * draw (render: again from what it has, after a theme change or a resize),
 * export (its frame writes SVG and PNG), hover (inside the frame).
 * @typedef {object} View
 * @property {import('./frame.js').Frame} frame
 * @property {() => void} render
 * @property {Promise<void>} [drawing] settles when a chart drawn in slices is complete (export waits)
 */

export {};
