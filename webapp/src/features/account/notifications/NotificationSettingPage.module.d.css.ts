// Generated from NotificationSettingPage.module.css (its classes); app/styles.test.ts keeps the two in step.
declare const styles: {
  readonly 'push-note': string;
  readonly 'push-warning': string;
};
export default styles;
