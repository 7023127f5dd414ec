import { setupZonelessTestEnv } from 'jest-preset-angular/setup-env/zoneless';

// The app runs zoneless (app.config.ts), so its tests do too.
setupZonelessTestEnv();
