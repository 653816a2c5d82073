// Generated from LoginPage.module.css (its classes); app/styles.test.ts keeps the two in step.
declare const styles: {
  readonly 'login-page': string;
};
export default styles;
