// Generated from MinePage.module.css (its classes); app/styles.test.ts keeps the two in step.
declare const styles: {
  readonly 'mine': string;
  readonly 'mine-points': string;
  readonly 'mine-points__actions': string;
  readonly 'mine-points__amount': string;
  readonly 'mine-points__frozen': string;
  readonly 'mine-points__title': string;
  readonly 'mine-profile': string;
  readonly 'mine-profile__account': string;
  readonly 'mine-profile__name': string;
  readonly 'mine-profile__text': string;
  readonly 'mine__sign-out': string;
  readonly 'status-badge': string;
  readonly 'status-badge--on': string;
};
export default styles;
