//PAYYTD   JOB (ACCT,PAY),'YTD UPDATE',CLASS=A,MSGCLASS=X
//*-------------------------------------------------------------------
//* YEAR-TO-DATE ACCUMULATION, RUN AFTER PAYWEEK COMPLETES
//*-------------------------------------------------------------------
//STEP010  EXEC PGM=YTDUPDT
//STEPLIB  DD DSN=PAY.PROD.LOADLIB,DISP=SHR
//PAYIN    DD DSN=PAY.WEEKLY.PAYFILE,DISP=SHR
//YTDMAST  DD DSN=PAY.YTD.MASTER,DISP=OLD
