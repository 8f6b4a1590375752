export { main } from './main.js';
export { type Io, EXIT } from './io.js';
export { startServer, type RunningServer, type StartOptions } from './start-server.js';
export { readSpecTranslations } from './spec-translations.js';
