// Lint: ESLint with typescript-eslint (STYLE.md §12 tooling); formatting is Prettier's (.prettierrc).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['node_modules/', 'dist/', 'data/', 'test-results/', 'playwright-report/', 'e2e/screenshots/'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // Card numbers and codes must never reach a log by accident: logging goes through pino.
      'no-console': ['error', { allow: ['warn', 'error'] }],
      // A binding a closure reads before its one assignment cannot be const.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // `interface TransactionService<Ctx> extends Methods<Ctx> {}` names a mapped type for `implements`.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
      // Merchant strings render as text only (security-requirements.md XSS-1).
      'no-restricted-syntax': [
        'error',
        {
          selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
          message: 'Render text only: dangerouslySetInnerHTML is not allowed (XSS-1).',
        },
        {
          selector: "CallExpression[callee.property.name='postMessage'] > Literal[value='*']",
          message: 'postMessage needs an exact target origin (EMB-4).',
        },
      ],
    },
  },
  {
    files: ['widget/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
