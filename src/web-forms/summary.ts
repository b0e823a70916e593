/** A line of the error summary: the field's name, then what to do, so a person knows where each problem is before following its link. */
export const summaryLine = (error: { label: string; message: string }) => (error.label ? `${error.label}: ${error.message}` : error.message);
