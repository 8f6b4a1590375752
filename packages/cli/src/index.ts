export { main } from './main.js';
export { type Io, EXIT } from './io.js';
