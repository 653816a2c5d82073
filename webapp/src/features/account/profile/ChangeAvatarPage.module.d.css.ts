// Generated from ChangeAvatarPage.module.css (its classes); app/styles.test.ts keeps the two in step.
declare const styles: {
  readonly 'avatar-page': string;
  readonly 'avatar-page__image': string;
  readonly 'avatar-page__preview': string;
  readonly 'avatar-page__sources': string;
};
export default styles;
