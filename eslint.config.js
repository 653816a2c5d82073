import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const importsApp = {
  regex: '^(\\.\\./)+app/',
  message: 'app/ is the top of the web app (shell, route table): move what you need below it, e.g. to navigation/.',
};
const importsScreens = {
  regex: '^(\\.\\./)+(features|components)/',
  message: 'navigation/ sits below the screens and the component kit: it holds paths and URL hooks only.',
};

export default tseslint.config(
  {
    ignores: ['node_modules/**', 'webapp/dist/**', 'webapp/e2e/screenshots/**', 'coverage/**', 'results/**'],
  },
  js.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    extends: [tseslint.configs.strictTypeChecked, tseslint.configs.stylisticTypeChecked],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
      globals: globals.browser,
    },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/consistent-type-definitions': 'off',
    },
  },
  // The web app's top folder, app/ (the shell and the route table), is imported by no folder
  // below it, so a screen never depends on the table that lazily loads it; navigation/ (paths,
  // URL hooks) sits below the screens and the component kit. Tests and test/ may import app/:
  // they render the whole app through its route table.
  {
    files: ['webapp/src/**/*.{ts,tsx}'],
    ignores: ['webapp/src/app/**', 'webapp/src/main.tsx', 'webapp/src/test/**', '**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [importsApp] }] },
  },
  {
    files: ['webapp/src/navigation/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [importsApp, importsScreens] }] },
  },
  {
    files: ['**/*.{js,mjs}'],
    languageOptions: {
      globals: { ...globals.node },
      sourceType: 'module',
    },
  },
  {
    // k6 scripts run in k6's JavaScript runtime, not Node: these are the globals it provides.
    files: ['loadtest/k6/**/*.js'],
    languageOptions: {
      globals: { __ENV: 'readonly', __VU: 'readonly', __ITER: 'readonly', open: 'readonly' },
    },
  },
  {
    // Browser tests: callbacks passed to page.evaluate() run in the page.
    files: ['webapp/e2e/**/*.mjs'],
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
    },
  },
);
