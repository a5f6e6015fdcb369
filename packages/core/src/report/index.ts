/** Public barrel of the report helpers: the SVG line chart and its axis scale. */
export * from './lineChart.js';
export * from './niceTicks.js';
export * from './seriesStyles.js';
export * from './svgText.js';
