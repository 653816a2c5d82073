// Generated from PrivacySettingPage.module.css (its classes); app/styles.test.ts keeps the two in step.
declare const styles: {
  readonly 'privacy-note': string;
};
export default styles;
