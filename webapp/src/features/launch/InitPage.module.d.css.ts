// Generated from InitPage.module.css (its classes); app/styles.test.ts keeps the two in step.
declare const styles: {
  readonly 'init-page': string;
  readonly 'init-page--image': string;
  readonly 'init-page__image': string;
  readonly 'init-page__skip': string;
  readonly 'init-page__title': string;
};
export default styles;
