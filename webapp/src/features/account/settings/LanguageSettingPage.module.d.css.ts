// Generated from LanguageSettingPage.module.css (its classes); app/styles.test.ts keeps the two in step.
declare const styles: {
  readonly 'language-list': string;
  readonly 'language-list__option': string;
};
export default styles;
